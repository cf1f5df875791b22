import { EXIT } from './exit-codes';

export const HELP_TEXT = `Ferry: send files and folders straight to another device.

Usage:
  ferry send [--server URL [--server-certificate SHA256] | --lan] [--verify]
             [--remember NAME] [--to NAME [--code]] PATH...
  ferry send [--server URL [--server-certificate SHA256] | --lan] [--verify]
             [--remember NAME] [--to NAME [--code]] --text TEXT|-
  ferry receive [--server URL [--server-certificate SHA256] | --lan] [--out DIR]
                [--yes] [--no-report] [--verify]
                [--remember NAME] [--from NAME] [--key=KEY] CODE|LINK
  ferry receive --listen [--server URL [--server-certificate SHA256] | --lan]
                [--out DIR] [--yes] [--no-report] [--verify]
  ferry receive --server URL [--server-certificate SHA256] | --lan [--out DIR] ...
  ferry devices [list] [--server URL [--server-certificate SHA256] | --lan]
  ferry devices rename NAME NEW-NAME | forget NAME
  ferry --help | --version

send       Registers a code, prints "Code: <code>" and waits for the receiver.
           Exits once the receiver confirms delivery. With --to NAME it needs no
           code: it reaches NAME while NAME waits for devices (receive --listen,
           the desktop app, an open page), and fails if NAME is not online.
receive    Joins the sender by its code, shows what is offered and asks before
           anything is written (unless --yes). Files are staged as <name>.part
           and renamed only after their byte count is verified; an existing
           name is never overwritten (it becomes "name (1).ext").
           With --listen and no code, it waits for devices until stopped
           (Ctrl-C): remembered devices reach it through their pair rooms, and
           when the server keeps a roster (a LAN room) anyone in the room can
           choose it. It prints who comes online and leaves, and each transfer,
           one at a time; an invitation while busy is ignored. With --lan or
           --server and no code, it does the same for one transfer and exits
           with that transfer's status.
devices    Lists the remembered devices, and whether each is online now; when
           the server keeps a roster, lists who is in the room ("In this room:").
           Renames or forgets one (forgetting also deletes its pair secret).

Both sides print "Verify: <three words>" before any file data moves: the same
words on both devices mean nobody sits between them. A device that cannot show
words is named as not verified. Given the sender's link (or its key), both
devices prove they hold its secret instead, and print "Verify: verified
automatically by the secret link"; if they cannot, the transfer stops with
"Someone may be intercepting this connection".

Options:
  --server URL   Signaling server (default: $FERRY_SERVER, else http://localhost:3001)
  --server-certificate SHA256
                 Accept the https --server by this certificate fingerprint (AB:CD:...)
                 instead of an authority: a LAN room served over HTTPS shows it beside
                 its address
  --lan          Use a LAN room another Ferry hosts on this network (found via DNS-SD);
                 when several answer, it lists them and you choose one with --server
  --out DIR      Where received files go (default: the current folder)
  --yes, -y      Accept the offer without asking (--listen: only a remembered device's)
  --no-report    Do not add the received byte count to the server's anonymous counter
  --key=KEY      The key of the sender's link (the part after "key="), when only the
                 code was typed
  --verify       Ask "Do the words match on the other device?" before any file data
                 moves; no (or a device that cannot show words) stops the transfer
  --remember NAME  Once the transfer is done, remember the other device as NAME; asks
                 to confirm the words first (unless the secret link matched). Next
                 time it shows as "Remembered device “NAME”", verified automatically
  --text TEXT    Send TEXT as a text message instead of files (- reads standard input);
                 another Ferry shows it, printed after a line "Text:", others save it
                 as message.txt
  --to NAME      Send to NAME with no code: a remembered device, reached through its
                 pair room (any other device is refused before a byte moves), or else
                 a device of that name in the room's roster (checked by the words;
                 NAME#ID picks one of several with one name). Exits ${EXIT.notOnline} when NAME
                 is not online, or not known
  --code         With --to: register a code as without --to, and let only the
                 remembered device NAME take it
  --from NAME    Receive from the remembered device NAME only: any other device is
                 refused before a byte moves
  --listen       Wait for devices without a code until stopped (see receive); with
                 --yes, what a remembered device sends is accepted without asking,
                 anything else is asked about

Remembered devices and this device's certificate are kept in $FERRY_HOME, else
the platform's configuration folder (~/.config/ferry on Linux).
  --help, -h     Show this help
  --version      Show the version

Exit codes:
  ${EXIT.ok}    delivered (send) / every file written and verified (receive)
  ${EXIT.failed}    the transfer failed (connection lost, timed out, a file discarded, ...)
  ${EXIT.usage}    the command line was not understood, or --lan found several rooms
  ${EXIT.declined}    the offer was declined (here, or by the receiving person), or the verification
       words not confirmed here
  ${EXIT.incompatible}    the two devices run incompatible versions of Ferry
  ${EXIT.unreachable}    the signaling server could not be reached, refused, or the code is unknown,
       used up or cancelled, or no one waits on it; or --lan found no room
  ${EXIT.notOnline}    send --to: the device is not online, or not known (not remembered,
       and not in the room)
  ${EXIT.interrupted}  interrupted (Ctrl-C); another Ferry reads "Stopped by the other person." and
       exits ${EXIT.failed}. Ctrl-C ends receive --listen with ${EXIT.ok} while it waits
`;
