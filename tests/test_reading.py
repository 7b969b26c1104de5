"""Reading a record: what `events` may be, and reading a long record fast and alike."""

from __future__ import annotations

import pytest
from records import HEAD

from sleuth.errors import InputError
from sleuth.store import load


@pytest.mark.parametrize("value", ["false", "0", "''", "{}", "no", "7", "Anton", "{a: 1}"])
def test_events_that_are_not_a_list_are_refused(tmp_path, value):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + f"events: {value}\n")
    with pytest.raises(InputError, match="expected a list of events") as caught:
        load(path)
    assert caught.value.field == "events"


@pytest.mark.parametrize("tail", ["", "events:\n", "events: null\n", "events: ~\n", "events: []\n"])
def test_no_events_absent_null_or_empty(tmp_path, tail):
    path = tmp_path / "game.yaml"
    path.write_text(HEAD + tail)
    assert load(path)[0].events == []
