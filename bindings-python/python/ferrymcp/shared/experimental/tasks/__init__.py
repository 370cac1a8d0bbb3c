"""The official `mcp.shared.experimental.tasks` submodules: `store.TaskStore` (the
interface), `in_memory_task_store.InMemoryTaskStore` (the engine's store),
`message_queue` (refused), `helpers.is_terminal` (core's rule)."""
