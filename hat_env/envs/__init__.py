"""Gymnasium (and PettingZoo) environments over the live-room simulator and the Harness runtime."""
