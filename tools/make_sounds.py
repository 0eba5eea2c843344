"""Generate the game's sound effects and music loop as WAV files (numpy + the stdlib `wave`).

Deterministic: the same script writes the same bytes. Run from the repository root:

    .venv/bin/python tools/make_sounds.py            # writes assets/sounds/*.wav
    .venv/bin/python tools/make_sounds.py --out DIR  # somewhere else

Sounds are mono, 16-bit, 22050 Hz to keep the repository small (pygame converts on load).
"""

from __future__ import annotations

import argparse
import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

RATE = 22050
SEED = 20240515
OUT_DIR = Path(__file__).resolve().parent.parent / "assets" / "sounds"  # the checkout's, not an installed copy

# C major pentatonic, as MIDI note numbers: the calm scale the music and jingles use.
PENTATONIC = (0, 2, 4, 7, 9)


def midi_hz(note: float) -> float:
    return 440.0 * 2 ** ((note - 69) / 12)


def seconds(duration: float) -> np.ndarray:
    return np.arange(round(duration * RATE)) / RATE


def envelope(t: np.ndarray, attack: float, decay: float) -> np.ndarray:
    """A soft linear attack then an exponential decay with time constant `decay`."""
    rise = np.clip(t / max(attack, 1e-6), 0.0, 1.0)
    return rise * np.exp(-np.maximum(t - attack, 0.0) / decay)


def bell(freq: float, duration: float, decay: float, brightness: float = 0.3) -> np.ndarray:
    """A soft mallet tone: a sine with a little octave and twelfth that die away faster."""
    t = seconds(duration)
    tone = (
        np.sin(2 * np.pi * freq * t)
        + brightness * np.sin(2 * np.pi * 2 * freq * t) * np.exp(-t / (decay * 0.4))
        + 0.5 * brightness * np.sin(2 * np.pi * 3 * freq * t) * np.exp(-t / (decay * 0.2))
    )
    return tone * envelope(t, 0.006, decay)


def lowpass(signal: np.ndarray, cutoff_hz: float) -> np.ndarray:
    """A one-pole low-pass filter (gentle, enough to round off noise)."""
    alpha = 1 - np.exp(-2 * np.pi * cutoff_hz / RATE)
    out = np.empty_like(signal)
    acc = 0.0
    for i, x in enumerate(signal):
        acc += alpha * (x - acc)
        out[i] = acc
    return out


def normalise(signal: np.ndarray, peak: float) -> np.ndarray:
    top = float(np.max(np.abs(signal)))
    return signal * (peak / top) if top > 0 else signal


def fade_edges(signal: np.ndarray, fade_s: float = 0.004) -> np.ndarray:
    """Short fades at both ends so no sound starts or stops with a click."""
    n = min(len(signal) // 2, round(fade_s * RATE))
    ramp = np.linspace(0.0, 1.0, n)
    signal = signal.copy()
    signal[:n] *= ramp
    signal[len(signal) - n:] *= ramp[::-1]
    return signal


# --- the effects -----------------------------------------------------------------------------


def place_sound(rng: np.random.Generator) -> np.ndarray:
    """A stone set down on wood: a short filtered knock with a woody resonance."""
    t = seconds(0.16)
    knock = lowpass(rng.standard_normal(len(t)), 2600) * envelope(t, 0.0008, 0.012)
    body = (
        np.sin(2 * np.pi * 420 * t) * envelope(t, 0.001, 0.035)
        + 0.6 * np.sin(2 * np.pi * 1130 * t) * envelope(t, 0.001, 0.018)
        + 0.25 * np.sin(2 * np.pi * 2380 * t) * envelope(t, 0.0005, 0.008)
    )
    return fade_edges(normalise(2.2 * knock + body, 0.8), 0.001)


def tick_sound(rng: np.random.Generator) -> np.ndarray:
    """A clock tick for the last seconds of a countdown: short, high, dry."""
    t = seconds(0.06)
    click = np.sin(2 * np.pi * 1850 * t) * envelope(t, 0.0005, 0.009)
    noise = lowpass(rng.standard_normal(len(t)), 5000) * envelope(t, 0.0002, 0.003)
    return fade_edges(normalise(click + 0.5 * noise, 0.45), 0.001)


def invalid_sound(rng: np.random.Generator) -> np.ndarray:
    """A dull double thud: 'not there'."""
    t = seconds(0.24)
    out = np.zeros(len(t))
    for start, pitch in ((0.0, 196.0), (0.09, 164.8)):
        i = round(start * RATE)
        seg = t[: len(t) - i]
        tone = np.sin(2 * np.pi * pitch * seg) + 0.3 * np.sin(2 * np.pi * 2 * pitch * seg)
        out[i:] += tone * envelope(seg, 0.003, 0.04)
    return fade_edges(normalise(lowpass(out, 1800), 0.55))


def jingle(notes: list[tuple[float, float]], duration: float, decay: float) -> np.ndarray:
    """Bell notes `(start_s, midi)` mixed into `duration` seconds."""
    out = np.zeros(round(duration * RATE))
    for start, note in notes:
        i = round(start * RATE)
        tone = bell(midi_hz(note), duration - start, decay)
        out[i:i + len(tone)] += tone[: len(out) - i]
    return out


def win_sound(rng: np.random.Generator) -> np.ndarray:
    """A bright rising pentatonic arpeggio ending on a chord."""
    steps = [60, 64, 67, 72, 76]
    notes = [(i * 0.09, n) for i, n in enumerate(steps)]
    notes += [(0.5, 79), (0.5, 72), (0.5, 67)]
    return fade_edges(normalise(jingle(notes, 1.7, 0.45), 0.7), 0.02)


def lose_sound(rng: np.random.Generator) -> np.ndarray:
    """A soft falling figure in minor: gentle, not mocking."""
    notes = [(0.0, 69), (0.2, 67), (0.4, 64), (0.62, 62), (0.62, 57)]
    return fade_edges(lowpass(normalise(jingle(notes, 1.6, 0.4), 0.6), 3000), 0.02)


# --- the music loop ----------------------------------------------------------------------------

CHORDS = (  # (bass, pad notes, arpeggio notes) per bar; all from C major pentatonic plus the pad's thirds
    (48, (60, 64, 67), (72, 76, 79, 84, 79, 76)),
    (45, (57, 60, 64), (69, 72, 76, 81, 76, 72)),
    (41, (57, 60, 65), (69, 72, 74, 77, 74, 72)),
    (43, (55, 62, 67), (67, 71, 74, 79, 74, 71)),
)
BAR_S = 4.0
EIGHTH_S = BAR_S / 12


def music_loop(rng: np.random.Generator) -> np.ndarray:
    """Sixteen seconds of a soft arpeggio over a pad; loops seamlessly (tails wrap round)."""
    total = round(BAR_S * len(CHORDS) * RATE)
    out = np.zeros(total)

    def add_wrapped(start_s: float, sound: np.ndarray) -> None:
        index = (round(start_s * RATE) + np.arange(len(sound))) % total
        np.add.at(out, index, sound)

    for bar, (bass, pad, arpeggio) in enumerate(CHORDS):
        bar_start = bar * BAR_S
        # The pad: slightly detuned sine pairs that swell in and out across the bar.
        t = seconds(BAR_S + 1.0)
        swell = np.sin(np.pi * np.clip(t / (BAR_S + 1.0), 0, 1)) ** 2
        pad_sound = np.zeros(len(t))
        for note in pad:
            f = midi_hz(note)
            pad_sound += np.sin(2 * np.pi * f * t) + np.sin(2 * np.pi * f * 1.003 * t + 1.0)
        add_wrapped(bar_start - 0.5, 0.05 * pad_sound * swell)
        add_wrapped(bar_start, 0.22 * bell(midi_hz(bass), 3.5, 1.4, brightness=0.1))
        # The arpeggio: twelve eighths a bar, the pattern played twice, the last one left out.
        for step in range(11):
            note = arpeggio[step % len(arpeggio)]
            velocity = 0.16 if step % 3 == 0 else 0.11
            add_wrapped(bar_start + step * EIGHTH_S + rng.uniform(0, 0.008),
                        velocity * bell(midi_hz(note), 2.0, 0.55, brightness=0.25))
    # A soft echo for space, wrapped round so the loop stays seamless.
    delay = round(EIGHTH_S * 3 * RATE)
    echoed = out.copy()
    for repeat in range(1, 4):
        echoed += (0.28 ** repeat) * np.roll(out, repeat * delay)
    return normalise(lowpass(echoed, 4200), 0.55)


SOUNDS: dict[str, Callable[[np.random.Generator], np.ndarray]] = {
    "place": place_sound,
    "win": win_sound,
    "lose": lose_sound,
    "invalid": invalid_sound,
    "tick": tick_sound,
    "music": music_loop,
}


def write_wav(path: Path, signal: np.ndarray) -> None:
    """Mono 16-bit PCM at RATE."""
    samples = np.clip(np.round(signal * 32767), -32768, 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(samples.tobytes())


def make_all(out_dir: Path) -> dict[str, int]:
    """Write every sound to `out_dir`; returns the size in bytes of each file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for name, make in SOUNDS.items():
        rng = np.random.default_rng([SEED, len(name), sum(map(ord, name))])  # one stream per sound
        path = out_dir / f"{name}.wav"
        write_wav(path, make(rng))
        sizes[name] = path.stat().st_size
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="folder to write the WAV files to")
    args = parser.parse_args()
    sizes = make_all(args.out)
    for name, size in sizes.items():
        print(f"{name}.wav {size / 1024:.0f} KiB")
    print(f"total {sum(sizes.values()) / 1024:.0f} KiB in {args.out}")


if __name__ == "__main__":
    main()
