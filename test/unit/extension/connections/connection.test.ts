// extension/connections/connection.ts: URL checks of a connection (pure: no vscode import).
import assert from 'node:assert/strict';
import { baseUrlProblem, insecureUrlWarning } from '../../../../src/extension/connections/connection';

describe('extension: connection URLs', () => {
  it('warns about http to a host that is not local, and only then', () => {
    assert.match(String(insecureUrlWarning('http://api.example.com')), /not https/);
    assert.equal(insecureUrlWarning('https://api.example.com'), undefined);
    assert.equal(insecureUrlWarning('http://127.0.0.1:8080'), undefined);
    assert.equal(insecureUrlWarning('http://localhost:3000'), undefined);
    assert.equal(insecureUrlWarning('http://[::1]:3000'), undefined);
  });

  it('rejects what is not an http(s) URL, and credentials in the URL', () => {
    assert.match(String(baseUrlProblem('api.example.com')), /Not a URL/);
    assert.match(String(baseUrlProblem('ftp://api.example.com')), /https:\/\/ or http:\/\//);
    assert.match(String(baseUrlProblem('https://user:secret@api.example.com')), /credentials/);
    assert.equal(baseUrlProblem('https://api.example.com/prefix'), undefined);
  });
});
