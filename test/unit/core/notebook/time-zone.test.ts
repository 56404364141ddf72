// core/notebook/time-zone: which zone a notebook runs in (flags over metadata over settings, then UTC and clock
// days), a bad value named with where it came from; the metadata and the outputs' zone survive a save and read.
import assert from 'node:assert/strict';
import { codeCell, MIME, parseNotebook, serializeNotebook, textItem } from '../../../../src/core/notebook';
import { notebookZone } from '../../../../src/core/notebook/time-zone';
import { TimeZoneError } from '../../../../src/core/time/zone';

describe('core/notebook: the notebook time zone', () => {
  it('flags over metadata over settings, each key on its own; UTC and clock days by default', () => {
    assert.deepEqual(notebookZone({}), { name: 'UTC', dayBoundary: 'clock' });
    assert.deepEqual(notebookZone({}, { timeZone: 'Europe/Paris', dayBoundary: 'standard' }), {
      name: 'Europe/Paris',
      dayBoundary: 'standard',
    });
    assert.deepEqual(
      notebookZone({ timeZone: 'America/Denver' }, { timeZone: 'Europe/Paris', dayBoundary: 'standard' }),
      {
        name: 'America/Denver',
        dayBoundary: 'standard',
      },
    );
    assert.deepEqual(notebookZone({ timeZone: 'America/Denver' }, undefined, { timeZone: 'Asia/Kathmandu' }), {
      name: 'Asia/Kathmandu',
      dayBoundary: 'clock',
    });
  });

  it('a bad value says where it came from (TIME_ZONE)', () => {
    assert.throws(
      () => notebookZone({ timeZone: 'Mars/Olympus' }),
      (e: unknown) => e instanceof TimeZoneError && /^the notebook's metadata: unknown time zone/.test(e.message),
    );
    assert.throws(
      () => notebookZone({}, undefined, { dayBoundary: 'local' }),
      /--time-zone \/ --day-boundary: day boundary/,
    );
    assert.throws(() => notebookZone({}, { timeZone: 42 }), /the settings: a number is not an IANA time zone name/);
  });

  it("the metadata and an output's zone are kept through save and read; a zone of the wrong type is dropped", () => {
    const nb = {
      metadata: { timeZone: 'America/Denver', dayBoundary: 'standard' },
      cells: [
        {
          ...codeCell('datasources'),
          outputs: [
            {
              items: [textItem(MIME.text, 'x')],
              metadata: { measnb: { title: 't', timeZone: { name: 'America/Denver', dayBoundary: 'standard' } } },
            },
          ],
        },
      ],
    };
    const back = parseNotebook(serializeNotebook(nb as Parameters<typeof serializeNotebook>[0]));
    assert.equal(back.metadata.timeZone, 'America/Denver');
    assert.deepEqual((back.cells[0].outputs[0].metadata?.measnb as { timeZone?: unknown } | undefined)?.timeZone, {
      name: 'America/Denver',
      dayBoundary: 'standard',
    });
    const bad = parseNotebook(JSON.stringify({ measnb: 1, metadata: { timeZone: { evil: true } }, cells: [] }));
    assert.equal(bad.metadata.timeZone, undefined);
  });
});
