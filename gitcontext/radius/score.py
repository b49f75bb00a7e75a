"""Tiers by churned lines and the two-channel blast score B(x) = r(x)·Σ w(x,y) + λ·c(x).

c(x) = churned lines of x (added + removed) — the change's own channel.
r(x) = c(x): the risk a change carries to its dependents grows with the lines it touches.
w(x,y) = 2^-(d-1) for a dependent y at import distance d (1 for direct importers, 1/2 at two
hops, ...): each further hop is half as likely to feel the change.
λ = radius.lambda (default 1.0) weighs the change itself against its reach.
So B(x) = c(x)·(Σ_y 2^-(d(y)-1) + λ): churned lines times the weighted number of dependents, plus
the lines themselves.
"""

from __future__ import annotations

TIERS = (("DEADLY", 1000), ("RISK", 500), ("HIGH", 200), ("MEDIUM", 50))
LOW = "LOW"
PRESSURE_TIERS = frozenset({"RISK", "DEADLY"})
ORDER = ("DEADLY", "RISK", "HIGH", "MEDIUM", "LOW")


def tier(churn: int) -> str:
    for name, floor in TIERS:
        if churn >= floor:
            return name
    return LOW


def edge_weight(distance: int) -> float:
    return 2.0 ** -(distance - 1)


def blast(churn: int, distances: dict[str, int], lam: float) -> float:
    risk = float(churn)
    return round(risk * sum(edge_weight(d) for d in distances.values()) + lam * churn, 2)


def pressure(tiers: list[str]) -> bool:
    return any(t in PRESSURE_TIERS for t in tiers)
