import { create } from 'qrcode';
import { useMemo } from 'react';

// The QR standard asks for four modules of light margin so scanners can find the symbol.
const QUIET_ZONE = 4;

function symbolOf(text: string): { side: number; path: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  let path = '';
  for (let row = 0; row < modules.size; row += 1) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      path += `M${start + QUIET_ZONE} ${row + QUIET_ZONE}h${col - start}v1h${start - col}z`;
    }
  }
  return { side: modules.size + 2 * QUIET_ZONE, path };
}

/** A QR code of `text`, drawn as SVG so it stays sharp at any size; dark on light in both themes. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { side, path } = useMemo(() => symbolOf(text), [text]);
  return (
    <svg
      className="qr-code"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${side} ${side}`}
      shapeRendering="crispEdges"
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
