"""Loot the Loop."""
