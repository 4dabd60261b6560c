"""The Dschamál Trio: conditions A and B, who receives what, the camel, no owners, the rotation."""

from __future__ import annotations

from test_dschamal_support import Table, position, press

BASE = {
    "Marc": ["block/yellow"],
    "Anne": ["shape-6/yellow"],
    "Herman": ["shape-7/yellow"],
    "Carl": ["shape-8/yellow"],
    "Werner": ["shape-9/yellow"],
}


def trio(next: tuple[str, str, str], **holdings: list[str]) -> Table:
    return position("trio", {**BASE, **holdings}, next=next)


def test_setup_one_yellow_stone_each_and_the_longest_fingers_open() -> None:
    table = Table("trio")
    [first, *_] = table.fold.engine.actions(table.state)
    assert first.type == "start" and all(c.endswith("/yellow") for c in first.fields[0].choices)
    table.start(
        {
            p: f"{s}/yellow"
            for p, s in zip(table.state.players, ("ball", "egg", "disc", "block", "shape-6"), strict=True)
        }
    )
    table.send({"type": "first", "player": "Marc"})
    request = table.request()
    assert request.seats == ("Werner", "Marc", "Anne")  # both neighbours
    assert request.needs == "order" and request.call == "Dschamál!"


def test_the_carl_anne_herman_example_and_the_discs_become_winning_stones() -> None:
    # "Carl did draw, before Anne, a playing stone (a block) that none of the participants owns.
    # Anne has drawn a disc out of the bag faster than Herman. Because Carl already owns discs,
    # Anne receives not only the drawn disc but also one disc from Carl. ... Because now all four
    # discs have been drawn out of the bag, they become winning stones for Carl and Anne."
    table = trio(
        ("Anne", "Herman", "Carl"),
        Anne=["ball/yellow"],
        Carl=["disc/blue", "disc/yellow", "disc/white"],
    )
    table.send(press("Carl", "Anne", "Herman"))
    table.draw("Carl", "block/white")
    assert table.state.tasks[0].player == "Anne" and table.state.tasks[0].role == "second"
    table.draw("Anne", "disc/brown")
    assert len(table.state.winning_of("Anne")) == 2
    assert len(table.state.winning_of("Carl")) == 2
    assert all(
        s.startswith("disc/") for s in (*table.state.winning_of("Anne"), *table.state.winning_of("Carl"))
    )
    assert "block/white" in table.state.bag  # the fastest's stone when the second wins: back (default)
    assert "dschamal.trio.second" in table.rules() and "dschamal.winning.out-of-bag" in table.rules()


def test_the_carl_anne_example_with_in_front_winning_stones() -> None:
    table = position(
        "trio",
        {**BASE, "Anne": ["ball/yellow"], "Carl": ["disc/blue", "disc/yellow", "disc/white"]},
        next=("Anne", "Herman", "Carl"),
        winning_stones="in-front",
    )
    table.send(press("Carl", "Anne", "Herman"))
    table.draw("Carl", "block/white")
    table.draw("Anne", "disc/brown")
    assert table.state.winning_of("Anne") == () and table.state.winning_of("Carl") == ()


def test_option_the_second_fastest_winner_also_receives_the_fastests_stone() -> None:
    table = position(
        "trio",
        {**BASE, "Carl": ["disc/blue"]},
        next=("Anne", "Herman", "Carl"),
        trio_fastest_stone="winner",
    )
    table.send(press("Carl", "Anne", "Herman"))
    table.draw("Carl", "block/white")
    table.draw("Anne", "disc/brown")
    assert {"block/white", "disc/brown", "disc/blue"} <= set(table.state.stones_of("Anne"))


def marc_anne_herman() -> Table:
    # "Marc was faster than Anne. He has drawn the blue ball. Because neither he, nor Anne, nor
    # Herman owns a ball, Marc has not won the three-way contest. As second fastest, Anne has
    # drawn the camel."
    table = trio(
        ("Marc", "Anne", "Herman"),
        Marc=["block/yellow", "disc/white"],
        Herman=["shape-7/yellow", "egg/brown"],
    )
    table.send(press("Marc", "Anne", "Herman"))
    table.draw("Marc", "ball/blue")
    return table


def test_anne_calls_the_camel_and_takes_a_stone_of_her_choice_from_both() -> None:
    table = marc_anne_herman()
    [draw, *_] = table.fold.engine.actions(table.state)
    assert draw.fixed == {"player": "Anne"} and draw.fields[1].choices == ("Anne",)
    table.draw("Anne", "camel", ["Anne"])
    assert [(t.kind, t.player, t.other) for t in table.state.tasks] == [
        ("take", "Anne", "Marc"),
        ("take", "Anne", "Herman"),
    ]
    table.send({"type": "take", "player": "Anne", "from": "Marc", "stone": "disc/white"})
    table.send({"type": "take", "player": "Anne", "from": "Herman", "stone": "egg/brown"})
    assert {"disc/white", "egg/brown"} <= set(table.state.stones_of("Anne"))
    assert "ball/blue" in table.state.bag and table.state.bag_camel
    assert "dschamal.trio.camel" in table.rules()


def test_anne_forgets_the_call_and_herman_receives_marcs_ball() -> None:
    table = marc_anne_herman()
    table.draw("Anne", "camel")
    assert "ball/blue" in table.state.stones_of("Herman")
    assert table.state.bag_camel
    assert "dschamal.trio.slowest" in table.rules()


def test_the_fastest_wins_with_condition_a_and_receives_from_each_owner() -> None:
    table = trio(("Marc", "Anne", "Herman"), Anne=["ball/yellow", "disc/blue"], Herman=["ball/white"])
    table.send(press("Marc", "Anne", "Herman"))
    table.draw("Marc", "ball/blue")
    marc = table.state.stones_of("Marc")
    assert {"ball/blue", "ball/yellow", "ball/white"} <= set(marc)
    assert not any(s.startswith("ball/") for s in table.state.stones_of("Herman"))
    assert not table.state.tasks  # the second's stone goes back unseen
    assert "dschamal.trio.receives" in table.rules()


def test_a_tie_for_second_matters_only_when_the_fastest_fails() -> None:
    table = trio(("Marc", "Anne", "Herman"), Marc=["ball/yellow"])
    table.send(press("Marc", ("Anne", "Herman")))
    table.draw("Marc", "ball/blue")
    assert "ball/blue" in table.state.stones_of("Marc")
    table = trio(("Marc", "Anne", "Herman"))
    table.send(press("Marc", ("Anne", "Herman")))
    table.draw("Marc", "ball/blue")
    assert "dschamal.trio.tie-second" in table.rules()
    assert table.request().seats == ("Marc", "Anne", "Herman")


def test_no_participant_owns_a_stone_the_decision_stone() -> None:
    table = trio(("Marc", "Anne", "Herman"), Marc=[], Anne=[], Herman=[])
    assert table.summary["awaiting"]["kind"] == "decision"
    table.send({"type": "decision", "stone": "egg/white"})
    table.send(press("Marc", "Anne", "Herman"))
    table.draw("Marc", "ball/blue")
    # "the second fastest player receives the decision stone. The slowest player receives the
    # drawn coloured playing stone of the fastest player."
    assert table.state.stones_of("Anne") == ("egg/white",)
    assert table.state.stones_of("Herman") == ("ball/blue",)
    assert "dschamal.trio.no-owner" in table.rules()


def test_no_owner_the_fastest_draws_the_decision_shape() -> None:
    table = trio(("Marc", "Anne", "Herman"), Marc=[], Anne=[], Herman=[])
    table.send({"type": "decision", "stone": "egg/white"})
    table.send(press("Marc", "Anne", "Herman"))
    table.draw("Marc", "egg/blue")
    assert table.state.stones_of("Marc") == ("egg/blue", "egg/white")


def test_the_next_trio_rotates_as_in_the_example() -> None:
    # "Marc, Anne and Herman took part in the last three-way contest. Anne, Herman and Carl fight
    # out the next three-way contest, and afterwards follows the three-way contest with Herman,
    # Carl and Werner."
    table = trio(("Marc", "Anne", "Herman"), Marc=["ball/yellow"], Anne=["disc/blue"], Herman=["block/blue"])
    table.send(press("Marc", "Anne", "Herman"))
    table.draw("Marc", "ball/blue")
    assert table.state.order.next == ("Anne", "Herman", "Carl")
    table.send(press("Anne", "Herman", "Carl"))
    table.draw("Anne", "disc/white")
    assert table.state.order.next == ("Herman", "Carl", "Werner")
    assert table.verdicts[-1].rule.id == "dschamal.trio.next"


def test_drawing_several_fulfils_no_condition() -> None:
    table = trio(("Marc", "Anne", "Herman"), Marc=["ball/yellow"])
    table.send(press("Marc", "Anne", "Herman"))
    table.send({"type": "several", "player": "Marc", "coloured": ["ball/blue", "egg/blue"]})
    table.draw("Anne", "black")
    assert {"ball/blue", "egg/blue"} <= set(table.state.stones_of("Herman"))


def test_no_owner_the_fastest_draws_the_camel_and_calls() -> None:
    table = trio(("Marc", "Anne", "Herman"), Marc=[], Anne=[], Herman=[])
    table.send({"type": "decision", "stone": "egg/white"})
    table.send(press("Marc", "Anne", "Herman"))
    table.draw("Marc", "camel", ["Marc"])
    assert table.state.stones_of("Marc") == ("egg/white",)
    assert table.state.bag_camel
    assert "dschamal.decision.camel" in table.rules()
