"""The coach's engine side: game reviews, puzzles and lessons (pure, stdlib only).

The bot asks these modules what a turn was worth, whether a puzzle answer is right and
whether a lesson's exercise is solved; they answer with data and message keys, never
with sentences, so every language is served the same way.
"""
