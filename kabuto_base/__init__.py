"""What every package of the project shares and that imports none of them: the base layer.

:mod:`kabuto_base.errors` holds the one refusal (``IllegalMove``) that Kabuto Sumo and the card
games both raise. Standard library only.
"""
