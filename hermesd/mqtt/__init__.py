"""hermesd's side of MQTT: Home Assistant discovery, state publishing, commands from MQTT.

The broker connection itself lives in the mqtt tool process (`hermes_tools.mqtt`); this package
decides what is published and answers what arrives, through the same engine as every other edge.
"""
