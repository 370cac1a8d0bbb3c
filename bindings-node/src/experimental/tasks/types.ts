/**
 * `ferrymcp/experimental/tasks/types.js`: the v1 task schemas, the ones generated from the
 * specification (`ferrymcp/types.js`). The v1 SDK's own capability and creation-option
 * shapes (`ClientTasksCapabilitySchema`, `ServerTasksCapabilitySchema`,
 * `TaskCreationParamsSchema`) are not there.
 */
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
