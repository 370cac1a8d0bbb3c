/**
 * `ferrymcp/experimental/tasks/types.js`: the v1 task schemas, the ones generated from the
 * specification (`ferrymcp/types.js`), and the v1 SDK's own capability and creation-option
 * shapes.
 */
export { ClientTasksCapabilitySchema, ServerTasksCapabilitySchema, TaskCreationParamsSchema } from '../../v1-task-schemas.js';
export {
  CancelTaskRequestSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  ListTasksRequestSchema,
  ListTasksResultSchema,
  RelatedTaskMetadataSchema,
  TaskSchema,
  TaskStatusNotificationParamsSchema,
  TaskStatusNotificationSchema,
} from '../../schemas.js';
