"""Advice on the move at hand: Goldraub guesses, Lima accusations."""
