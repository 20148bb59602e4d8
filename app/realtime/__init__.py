"""Websockets: the ``/ws/rooms/{code}`` endpoint, frame schemas and the connection hub."""
