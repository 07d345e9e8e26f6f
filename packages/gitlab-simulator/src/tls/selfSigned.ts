import { generateKeyPairSync, randomBytes } from 'crypto';
import { isIP } from 'net';
import forge from 'node-forge';

export interface ServerCertificate {
  /** PEM certificate; also the CA a client must trust (it signs itself). */
  cert: string;
  /** PEM private key. */
  key: string;
}

/**
 * A self-signed server certificate for `hosts` (DNS names or IP addresses),
 * made at start-up. Go's TLS stack (kubectl) ignores the common name and
 * needs subjectAltName entries; the key comes from node:crypto (fast, native),
 * the X.509 encoding from node-forge, which node:crypto lacks.
 */
export function selfSignedCertificate(
  hosts: string[],
  days = 30,
): ServerCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
  });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }) as string,
  );
  // A positive serial number in minimal DER: the first byte neither zero
  // nor with its top bit set (OpenSSL refuses a redundant leading zero as
  // "illegal padding"; RFC 5280 4.1.2.2: a positive integer).
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  cert.serialNumber = serial.toString('hex');
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + days * 86400e3);
  const subject = [
    { name: 'commonName', value: hosts[0] ?? 'localhost' },
    { name: 'organizationName', value: 'gitlab-simulator' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    {
      name: 'keyUsage',
      digitalSignature: true,
      keyEncipherment: true,
      keyCertSign: true,
      critical: true,
    },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: hosts.map(host =>
        isIP(host) ? { type: 7, ip: host } : { type: 2, value: host },
      ),
    },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(
    forge.pki.privateKeyFromPem(
      privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    ),
    forge.md.sha256.create(),
  );
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}
