"""`python -m hermes_tools.sim` (also `hermes-sim`): simulated devices for a hermesd config."""

from hermes_tools.sim.cli import main

if __name__ == "__main__":
    main()
