"""The card data of 逆转文明 (Reversed Civilizations), loaded once at import from ``cards.json``.

The seed's component list is empty, so the deck is ours (rulings, "Components"): 16 cards plus
the start card S (王权 & 婚姻). Each card has two worker slots (slot 0 and slot 1) and a leader
cost (5 of one resource) except S. Slot types carry a colour (yellow production, blue function,
red interaction) and possibly the reversal icon ↺. The deck is data so it can be tuned without
touching the rules (rulings, "Balance check").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["SlotType", "CardDef", "RESOURCES", "LEADER_COST", "SLOT_TYPES", "CARDS",
           "START_CARD", "DECK_IDS", "load_card_data"]


@dataclass(frozen=True)
class SlotType:
    """One of the 18 worker-slot types.

    Attributes:
        key: the engine's English key, e.g. ``"weaving"`` (织网).
        zh, en: display names.
        colour: ``"yellow"``, ``"blue"`` or ``"red"`` (seed, "工位效果详解").
        reversal: whether the slot carries ↺ (a worker on it rotates its card at clean-up).
        gain: for yellow slots, the fixed resources gained as ``(fish, meat, wheat)``; else zeros.
    """

    key: str
    zh: str
    en: str
    colour: str
    reversal: bool
    gain: tuple[int, int, int]


@dataclass(frozen=True)
class CardDef:
    """A card: ``id`` (0 = the start card S), its two slot keys, and its leader cost resource.

    ``cost`` is a resource index (0 fish, 1 meat, 2 wheat) or ``None`` for S, which takes no
    leader (rulings, "S card").
    """

    id: int
    slots: tuple[str, str]
    cost: int | None


def _gain(gain: Mapping[str, Any], names: tuple[str, ...]) -> tuple[int, int, int]:
    """Return a slot's fixed gain per resource of ``names`` (three: fish, meat, wheat).

    Raises:
        ValueError: when ``names`` does not hold exactly three resources.
    """
    fish, meat, wheat = (int(gain.get(name, 0)) for name in names)
    return fish, meat, wheat


def load_card_data(raw: Mapping[str, Any]) -> tuple[tuple[str, ...], int, dict[str, SlotType],
                                                      dict[int, CardDef]]:
    """Parse the card file's JSON into ``(resources, leader cost, slot types, cards by id)``.

    Raises:
        ValueError: when a card names an unknown slot or resource, or ids repeat.
    """
    names = tuple(raw["resources"])
    slot_types = {key: SlotType(key, spec["zh"], spec["en"], spec["colour"], bool(spec["reversal"]),
                                _gain(spec.get("gain", {}), names))
                  for key, spec in raw["slots"].items()}
    cards: dict[int, CardDef] = {}
    for spec in [raw["start_card"], *raw["deck"]]:
        slots = tuple(spec["slots"])
        if len(slots) != 2 or any(s not in slot_types for s in slots):
            raise ValueError(f"Card {spec['id']} has bad slots {slots}.")
        if spec["id"] in cards:
            raise ValueError(f"Card id {spec['id']} repeats.")
        cost = None if spec["cost"] is None else names.index(spec["cost"])
        cards[spec["id"]] = CardDef(spec["id"], slots, cost)
    return names, int(raw["leader_cost_amount"]), slot_types, cards


_RAW = json.loads(resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8"))
RESOURCES, LEADER_COST, SLOT_TYPES, CARDS = load_card_data(_RAW)
START_CARD: int = _RAW["start_card"]["id"]
DECK_IDS: tuple[int, ...] = tuple(spec["id"] for spec in _RAW["deck"])
