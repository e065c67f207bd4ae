"""The card-table tests open real windows on the X display that tests/conftest.py provides."""
