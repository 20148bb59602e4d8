// Rating numbers as shown on the leaderboard and player pages.

/** A rating, mu or sigma with one decimal ("21.4"). */
export function ratingText(value) {
  return Number(value).toFixed(1);
}
