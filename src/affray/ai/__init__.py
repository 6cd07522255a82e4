"""Policies that choose actions from what a seat sees (DESIGN.md, contract 9)."""

from affray.ai.base import Policy, RandomPolicy, get_policy, policy_names, register_policy

__all__ = ["Policy", "RandomPolicy", "get_policy", "policy_names", "register_policy"]
