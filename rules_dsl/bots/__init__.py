"""Players that choose among the legal options through the one decision API."""
