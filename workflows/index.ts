/** The worker's workflow bundle: deterministic code only. */
export { deliveryWorkflow } from './delivery';
export { recoveryWorkflow } from './recovery';
export { resumeWorkflow } from './resume';
