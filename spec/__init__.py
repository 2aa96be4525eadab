"""Game specifications shipped as package data: one YAML file per game and the schema."""
