/** `ferrymcp/experimental/tasks/client.js`: the client's task API (`client.experimental.tasks`). */
export { ExperimentalClientTasks } from '../../client-tasks.js';
