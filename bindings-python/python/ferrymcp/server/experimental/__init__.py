"""Experimental server features at the official path (`mcp.server.experimental`): the
2025-11-25 tasks a low-level handler runs itself.

The submodules are the official ones: `task_context.ServerTaskContext`,
`request_context.Experimental` (`ctx.experimental`), `task_support.TaskSupport`,
`task_result_handler.TaskResultHandler` (refused: core answers `tasks/result`),
`task_scope` (the session scopes of task ids kept in an application's `TaskStore`).
"""
