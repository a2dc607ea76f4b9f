/** The worker's workflow bundle: deterministic code only. */
export { deliveryWorkflow, deliveryWorkflowV2 } from './delivery';
export { recoveryWorkflow } from './recovery';
