/**
 * The `privateKey` of a `client_credentials` OAuth client: read once when the config loads, so a key that cannot
 * sign is reported against its key path rather than on the first token request. The key is handed on as PKCS #8
 * PEM (what the SDK's `private_key_jwt` signer imports) with the algorithm that fits it.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { PRIVATE_KEY_SIGNING_ALGORITHMS, type PrivateKeySigningAlgorithm } from './types.js';

interface PrivateKeySetting {
  pkcs8Pem: string;
  algorithm: PrivateKeySigningAlgorithm;
}

/** What went wrong, for the config error: `expected` describes a good value, `found` the bad one without its text. */
interface PrivateKeyProblem {
  key: 'privateKey' | 'signingAlgorithm';
  expected: string;
  found: string;
}

const CURVE_ALGORITHMS: Record<string, PrivateKeySigningAlgorithm> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};

export function readPrivateKeySetting(
  pem: string,
  requestedAlgorithm: string | undefined,
): PrivateKeySetting | PrivateKeyProblem {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    return {
      key: 'privateKey',
      expected: 'a PEM private key (`-----BEGIN PRIVATE KEY-----`, or an RSA or EC key in PEM)',
      found: 'text that is not a private key',
    };
  }
  const fitting = fittingAlgorithms(key);
  if (fitting.length === 0) {
    return {
      key: 'privateKey',
      expected: 'an RSA key or an EC key on P-256, P-384 or P-521',
      found: `a key of type ${key.asymmetricKeyType ?? 'unknown'}`,
    };
  }
  if (requestedAlgorithm !== undefined && !fitting.includes(requestedAlgorithm as PrivateKeySigningAlgorithm)) {
    return {
      key: 'signingAlgorithm',
      expected: `an algorithm this key can sign with: ${fitting.join(', ')}`,
      found: `"${requestedAlgorithm}"`,
    };
  }
  const algorithm = (requestedAlgorithm as PrivateKeySigningAlgorithm | undefined) ?? fitting[0]!;
  return { pkcs8Pem: key.export({ type: 'pkcs8', format: 'pem' }).toString(), algorithm };
}

function fittingAlgorithms(key: KeyObject): PrivateKeySigningAlgorithm[] {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return PRIVATE_KEY_SIGNING_ALGORITHMS.filter((name) => /^(RS|PS)/.test(name));
  if (type === 'rsa-pss') return PRIVATE_KEY_SIGNING_ALGORITHMS.filter((name) => name.startsWith('PS'));
  if (type === 'ec') {
    const algorithm = CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
    return algorithm === undefined ? [] : [algorithm];
  }
  return [];
}

export function isPrivateKeyProblem(value: PrivateKeySetting | PrivateKeyProblem): value is PrivateKeyProblem {
  return 'expected' in value;
}
