"""The Modbus tool: polls PLCs over Modbus TCP and RTU and serves hermesd's point actions.

`codec` converts registers to values and back, `blocks` plans coalesced requests, `bus` owns
one physical link (a TCP connection or a serial port), `device` tracks each unit's health and
backoff, `schemas` declares the raw register actions, `tool` ties them to hermesd's protocol.
Run it as `python -m hermes_tools.modbus --socket PATH` (hermesd does). Nothing in this package
decides who may do what: hermesd's policy has done that before a call arrives.
"""
