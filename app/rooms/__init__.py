"""Rooms: the lifecycle, the live match state (the only place raw engine state lives), clocks."""
