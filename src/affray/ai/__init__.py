"""Policies and the loop that lets them play (DESIGN.md, contract 9)."""

from affray.ai.base import Policy, RandomPolicy, get_policy, policy_names

__all__ = ["Policy", "RandomPolicy", "get_policy", "policy_names"]
