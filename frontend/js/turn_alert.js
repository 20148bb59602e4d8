// "Your turn": the tab title says so while this seat is asked a decision, and
// an optional short beep (WebAudio) sounds when a decision begins. The sound choice is
// remembered in localStorage["arena.sound"] ("on" | "off"; off by default).

import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";

const SOUND_KEY = "arena.sound";
let wasMyTurn = false;
let audio = null;

/** Whether the "your turn" beep is on in this browser. */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

function beep() {
  try {
    audio = audio || new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.25);
  } catch {
    // no audio on this device: the title still says it
  }
}

/** The toggle says the sound's state in words and with a speaker (crossed out when off);
 * `aria-pressed` tells it to screen readers. */
function paintToggle(button) {
  const on = soundOn();
  button.setAttribute("aria-pressed", String(on));
  button.dataset.sound = on ? "on" : "off";
  button.replaceChildren(icon(on ? "speaker" : "speaker_off"), " ", t(on ? "turn.sound_on" : "turn.sound_off"));
}

/** A toggle button for the beep (its state is remembered). */
export function soundToggle() {
  const button = h("button", { type: "button", class: "button button-small", "data-testid": "sound-toggle",
    title: t("turn.sound_help"), onclick: () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      paintToggle(button);
      if (soundOn()) beep();
    } });
  paintToggle(button);
  return button;
}

/** Call after each redraw (which sets the plain title): prefix the tab title while `myTurn`,
 * and beep when a turn begins (if the sound is on). */
export function updateTurnAlert(myTurn) {
  const prefix = `${t("turn.title")} · `;
  const plain = document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
  document.title = myTurn ? prefix + plain : plain;
  if (myTurn && !wasMyTurn && soundOn()) beep();
  wasMyTurn = myTurn;
}
