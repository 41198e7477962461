"""Reading pack folders: YAML files with the position of every value."""
