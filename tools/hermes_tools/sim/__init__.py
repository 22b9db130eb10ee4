"""Simulators of the development plant's field devices, for the demo and the tests."""
