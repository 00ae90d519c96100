import { Image, Skeleton } from '@mantine/core';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';

/** The enrolment's `otpauth://` URI as a QR code, drawn in the browser: the secret never leaves the page. */
export function TotpQrCode({ uri, alt }: { uri: string; alt: string }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void toDataURL(uri, { margin: 1, width: 200 }).then((url) => current && setSource(url));
    return () => {
      current = false;
    };
  }, [uri]);
  return source ? <Image src={source} alt={alt} w={200} h={200} /> : <Skeleton w={200} h={200} />;
}
