// Who played each Reverse Curse field card: the seat's holder when the card went down. A bot that
// took a seat over mid-set (the seat kept timing out) plays its cards from then on; the cards the
// replaced player had played stay theirs. The view's field says only which seat played a card, so
// this follows the field through the batches of events the page has (ctx.batches: each with the
// seats' players then — the live room's as received, a replay's one per step): `card_played`
// puts a card on top, ROLL_MOLE moves the top card to the bottom, REBORN_UNICORN replaces the top
// card with one of the summoner's, `set_started` empties the field. Where the page missed events
// (it was opened mid-set) or what it followed does not end as the view's field (the same seats,
// turn by turn), it knows nothing and the field names each seat's holder now.

/** The display name of `seat`'s holder in `players` [{seat, name}], or null. */
function holder(players, seat) {
  const entry = (players || []).find((player) => player.seat === seat);
  return entry && entry.name ? entry.name : null;
}

/**
 * Follow the field through `batches` [{events, players} | {gap: true}], oldest first, from the
 * start of the match. Returns {field, resolved}: the field of the set in play as [{seat, name}]
 * (T1 first; null when a gap left it unknown), and per resolved set number its field as it was
 * resolved.
 */
export function followField(batches) {
  let field = [];  // set 1 starts with the match (it has no set_started event)
  const resolved = new Map();
  for (const batch of batches) {
    if (batch.gap) {
      field = null;
      continue;
    }
    let summoner = null;
    for (const { kind, data } of batch.events) {
      if (kind === "set_started") field = [];
      else if (kind === "summoned") summoner = data.seat;
      if (!field) continue;
      if (kind === "card_played") field.push({ seat: data.seat, name: holder(batch.players, data.seat) });
      else if (kind === "monster_effect" && data.monster === "ROLL_MOLE" && field.length) field.unshift(field.pop());
      else if (kind === "monster_effect" && data.monster === "REBORN_UNICORN" && field.length && summoner !== null) {
        field[field.length - 1] = { seat: summoner, name: holder(batch.players, summoner) };
      } else if (kind === "set_resolved") resolved.set(data.set, [...field]);
    }
  }
  return { field, resolved };
}

/**
 * The field `entries` [{turn, seat, …}] each with `holder`: who played it, from `followed`
 * ([{seat, name}] T1 first, from followField) when it matches the entries seat by seat; else
 * the entries as they are (the table then names each seat's holder now).
 */
export function withHolders(entries, followed) {
  const byTurn = [...entries].sort((a, b) => a.turn - b.turn);
  const matches = followed && followed.length === byTurn.length
    && byTurn.every((entry, index) => entry.seat === followed[index].seat);
  if (!matches) return entries;
  const names = new Map(byTurn.map((entry, index) => [entry.turn, followed[index].name]));
  return entries.map((entry) => (names.get(entry.turn) ? { ...entry, holder: names.get(entry.turn) } : entry));
}
