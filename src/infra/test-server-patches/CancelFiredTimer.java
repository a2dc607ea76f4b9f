package io.temporal.internal.testservice;

import io.temporal.api.command.v1.CancelTimerCommandAttributes;
import io.temporal.api.command.v1.Command;
import io.temporal.api.enums.v1.EventType;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.api.history.v1.TimerCanceledEventAttributes;
import java.util.Iterator;
import java.util.List;

/**
 * A timer that fires while a workflow task is with the worker has its TimerFired held back until the
 * task completes. When that task's own commands cancel the timer, the real server drops the held
 * TimerFired and records TimerCanceled (its AddTimerCanceledEvent). The test server 1.31 refused the
 * completion instead ("invalid history builder state for action") and never scheduled the task again,
 * so the workflow was stuck (temporalio/sdk-java#2606). This does what the real server does; and, as
 * there, such a TimerFired is no new event that would refuse a command completing the workflow.
 */
final class CancelFiredTimer {
  private CancelFiredTimer() {}

  /** True when `command`'s timer fired during this task: its TimerFired is replaced by TimerCanceled in `ctx`. */
  static boolean cancelHeldFire(
      List<RequestContext> held,
      RequestContext ctx,
      CancelTimerCommandAttributes command,
      long workflowTaskCompletedId) {
    for (Iterator<RequestContext> contexts = held.iterator(); contexts.hasNext(); ) {
      RequestContext context = contexts.next();
      for (Iterator<HistoryEvent> events = context.getEvents().iterator(); events.hasNext(); ) {
        HistoryEvent event = events.next();
        if (event.getEventType() != EventType.EVENT_TYPE_TIMER_FIRED
            || !event.getTimerFiredEventAttributes().getTimerId().equals(command.getTimerId())) {
          continue;
        }
        events.remove();
        // Nothing else was held with it: no workflow task is owed for it either.
        if (context.getEvents().isEmpty()) contexts.remove();
        ctx.addEvent(
            HistoryEvent.newBuilder()
                .setEventType(EventType.EVENT_TYPE_TIMER_CANCELED)
                .setTimerCanceledEventAttributes(
                    TimerCanceledEventAttributes.newBuilder()
                        .setWorkflowTaskCompletedEventId(workflowTaskCompletedId)
                        .setTimerId(command.getTimerId())
                        .setStartedEventId(event.getTimerFiredEventAttributes().getStartedEventId()))
                .build());
        return true;
      }
    }
    return false;
  }

  /** Whether `held` has an event besides the TimerFired of timers that `commands` cancel (those are replaced, not news). */
  static boolean heldNews(RequestContext held, List<Command> commands) {
    return held.getEvents().stream()
        .anyMatch(event -> event.getEventType() != EventType.EVENT_TYPE_TIMER_FIRED || !cancels(commands, event.getTimerFiredEventAttributes().getTimerId()));
  }

  private static boolean cancels(List<Command> commands, String timerId) {
    return commands.stream().anyMatch(command -> command.hasCancelTimerCommandAttributes() && command.getCancelTimerCommandAttributes().getTimerId().equals(timerId));
  }
}
