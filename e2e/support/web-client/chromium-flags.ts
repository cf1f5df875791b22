/**
 * Makes Chromium put its real host addresses in ICE candidates instead of `<uuid>.local` mDNS
 * names, which it does by default.
 */
export const SHOW_HOST_ADDRESSES = '--disable-features=WebRtcHideLocalIpsWithMdns';
