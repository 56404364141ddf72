// The EPA formulas live once, in core (the renderer's AQI views use them too); the emulator imports them here.
export * from '../core/aq/aqi';
