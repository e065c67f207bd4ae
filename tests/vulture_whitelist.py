"""Names vulture cannot see used, each with who uses it (read by tests/test_dead_code.py).

Frameworks call these by name: pyglet's event handlers and sprite properties, the websockets
server's ``_on_<message type>`` dispatch, OpenSpiel's ``pyspiel.State`` hooks, argparse's
``formatter_class``, pymunk's space settings and cffi's array views. A name listed here that
nothing calls is dead code all the same: remove both.
"""
# ruff: noqa
# mypy: ignore-errors

_ = object()

# pyglet calls these on the window, scenes and overlays, and reads these sprite/label attributes.
_.on_mouse_scroll
_.on_text
_.on_expose
_.set_state  # a pyglet graphics Group
_.unset_state
_.anchor_position
_.opacity
_.rotation
_.border_color
_.view_y

# kabuto.net.server dispatches a client message of type T to ``_on_T`` (getattr).
_._on_ping
_._on_list
_._on_create
_._on_join
_._on_resume
_._on_watch
_._on_fill
_._on_act
_._on_leave

# OpenSpiel calls these on a Python game, state and observer (cards/openspiel_adapter.py), and
# its MCTS calls these on an evaluator/bot (cards/openspiel_bots.py).
_._legal_actions
_._apply_action
_._action_to_string
_.set_from
_.string_from
_.make_py_observer
_.__qualname__
_.run_search
_.restart_at

# argparse reads the parser's formatter_class; pymunk reads a Space's settings; cffi's views.
_.formatter_class
_.idle_speed_threshold
_.sleep_time_threshold
_.max_bias
_.floatArray
_.intArray

# Module __getattr__ (PEP 562): Python calls it for lazy attributes of physics and kabuto.
__getattr__

# The table's layers are an ordered enumeration; the lift layer is the order's, drawn by none yet.
LAYER_LIFT

# tools/bench_cards.py: the bare loop's sum is the work being timed.
acc
