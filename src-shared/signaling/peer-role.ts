/** The first peer in a room is the sender, the second the receiver. */
export type PeerRole = 'sender' | 'receiver';
