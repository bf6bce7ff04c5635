// Passkeys (WebAuthn) in the browser: making one for the signed-in account, and answering the
// server's challenge with one to sign in (as a second factor) or to unlock a shared device.
// The relying party is the page's own host name; the server checks everything the browser
// returns (docs/security.md), so nothing here decides whether a passkey is good.

import * as api from './api.js';

/** Whether the app is reached by an IP address, which cannot hold passkeys (a site's passkeys
 *  belong to its host name). */
export function atAddress() { return /^[0-9.]+$/.test(location.hostname) || location.hostname.includes(':'); }

/** Whether this browser can use passkeys here: a secure context with WebAuthn, at a host name. */
export function supported() {
  return typeof window.PublicKeyCredential === 'function' && window.isSecureContext && !!navigator.credentials && !atAddress();
}

/** Bytes as base64url without padding. */
export function toBase64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** base64url text as bytes. */
export function fromBase64url(text) {
  const standard = text.replaceAll('-', '+').replaceAll('_', '/');
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** Makes a passkey on this device for the signed-in account and keeps it under `name`
 *  (the password is asked again); resolves to the kept passkey. */
export async function create(name, password) {
  const options = (await api.request('POST', '/me/passkeys/options', { noRetry: true })).data;
  const credential = await navigator.credentials.create({
    publicKey: {
      challenge: fromBase64url(options.challenge),
      rp: { id: location.hostname, name: 'VetNet' },
      user: { id: fromBase64url(options.userHandle), name: options.userName, displayName: options.displayName },
      pubKeyCredParams: options.algorithms.map((alg) => ({ type: 'public-key', alg })),
      excludeCredentials: options.excludeCredentials.map((id) => ({ type: 'public-key', id: fromBase64url(id) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      attestation: 'none',
      timeout: options.timeoutSeconds * 1000,
    },
  });
  const body = {
    name,
    password,
    clientDataJSON: toBase64url(credential.response.clientDataJSON),
    attestationObject: toBase64url(credential.response.attestationObject),
  };
  return (await api.request('POST', '/me/passkeys', { body, noRetry: true })).data;
}

/** Asks this device for a passkey of the site answering a fresh challenge: the assertion to
 *  send with a sign-in or an unlock. Rejects when the person cancels or has none here. */
export async function assertion() {
  const { challenge, timeoutSeconds } = (await api.request('POST', '/auth/passkey-challenge', { noRetry: true })).data;
  const credential = await navigator.credentials.get({
    publicKey: { challenge: fromBase64url(challenge), rpId: location.hostname, userVerification: 'required', timeout: timeoutSeconds * 1000 },
  });
  return {
    credentialId: toBase64url(credential.rawId),
    clientDataJSON: toBase64url(credential.response.clientDataJSON),
    authenticatorData: toBase64url(credential.response.authenticatorData),
    signature: toBase64url(credential.response.signature),
  };
}

/** The signed-in account's passkeys [{id, name, site, createdAt, lastUsedAt}]. */
export async function list() { return (await api.request('GET', '/me/passkeys', { noRetry: true })).data.items; }

/** Removes one of the signed-in account's passkeys. */
export async function remove(id) { await api.request('DELETE', `/me/passkeys/${encodeURIComponent(id)}`, { noRetry: true }); }
