"""`TransportSecuritySettings`, as the official `mcp.server.transport_security` names it:
which `Host` and `Origin` headers the HTTP endpoint accepts (against DNS rebinding).

Entries are `name`, `name:port` or `name:*` for hosts, and exact origins or
`scheme://name:*` for origins; core's endpoint does the checking (403 on a mismatch). The
official class is accepted as well: only these three attributes are read.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TransportSecuritySettings:
    enable_dns_rebinding_protection: bool = True
    allowed_hosts: list[str] = field(default_factory=list)
    allowed_origins: list[str] = field(default_factory=list)
