"""sleuth: certain facts, exact odds and safe guesses for Goldraub in London and Loot of Lima."""
