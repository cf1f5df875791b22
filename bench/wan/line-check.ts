// The check before the matrix of `npm run bench:wan`: TCP over the delay line at 0 ms against
// the namespaces' direct veth link. A TUN device without a virtio-net header moves one MTU-sized
// packet per read and write, so the fair comparison is the veth link with segmentation offload
// cut to one segment (gso_max_segs 1); the veth link with offload is printed beside it.
import type { NetnsPair } from '../../e2e/support/netns';
import { LINE_FAR_END, measureTcp } from './cells';
import { limitVethToOneSegment, startDelayLine } from './link';
import { median } from './summary';

/** The delay line at 0 ms must reach this share of the direct veth path's TCP goodput. */
const LINE_CHECK_TOLERANCE = 0.8;

export interface LineCheck {
  vethWithOffloadTcpCubicMiBps: number;
  vethTcpCubicMiBps: number;
  lineTcpCubicMiBps: number;
  ratio: number;
  tolerance: number;
  pass: boolean;
}

export interface LineCheckSetup {
  netns: NetnsPair;
  lineBinary: string;
  budget: number;
  seconds: number;
  reps: number;
  rateBytesPerS: number;
}

export async function checkLine(setup: LineCheckSetup): Promise<LineCheck> {
  const { netns, budget, seconds } = setup;
  const vethOffload: number[] = [];
  for (let rep = 0; rep < setup.reps; rep += 1) {
    vethOffload.push((await measureTcp(netns, netns.b.address, budget, seconds)).MiBps);
  }
  limitVethToOneSegment(netns);
  const veth: number[] = [];
  const line0: number[] = [];
  for (let rep = 0; rep < setup.reps; rep += 1) {
    veth.push((await measureTcp(netns, netns.b.address, budget, seconds)).MiBps);
    const line = await startDelayLine(setup.lineBinary, netns, {
      rttMs: 0,
      lossPct: 0,
      rateBytesPerS: setup.rateBytesPerS,
    });
    try {
      line0.push((await measureTcp(netns, LINE_FAR_END, budget, seconds)).MiBps);
    } finally {
      await line.stop();
    }
  }
  return {
    vethWithOffloadTcpCubicMiBps: median(vethOffload),
    vethTcpCubicMiBps: median(veth),
    lineTcpCubicMiBps: median(line0),
    ratio: Math.round((median(line0) / median(veth)) * 100) / 100,
    tolerance: LINE_CHECK_TOLERANCE,
    pass: median(line0) >= LINE_CHECK_TOLERANCE * median(veth),
  };
}
