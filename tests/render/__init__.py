"""Tests of the board renderer (bot/render): golden images, text boards, replays."""
