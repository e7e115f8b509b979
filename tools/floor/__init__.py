"""The floor: many tables' reports through a gateway into MQTT (docs/floor.md)."""
