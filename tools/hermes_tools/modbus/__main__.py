"""`python -m hermes_tools.modbus --socket PATH` (also `hermes-tool-modbus`): the Modbus tool."""

from hermes_tools.modbus.tool import main

if __name__ == "__main__":
    main()
