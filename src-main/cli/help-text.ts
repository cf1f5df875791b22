import { EXIT } from './exit-codes';

export const HELP_TEXT = `Ferry: send files and folders straight to another device.

Usage:
  ferry send [--server URL [--server-certificate SHA256] | --lan] [--verify]
             [--name NAME] [--remember NAME] [--to NAME] PATH...
  ferry send [--server URL [--server-certificate SHA256] | --lan] [--verify]
             [--name NAME] [--remember NAME] [--to NAME] --text TEXT|-
  ferry receive [--server URL [--server-certificate SHA256] | --lan] [--out DIR]
                [--yes] [--no-report] [--verify] [--name NAME]
                [--remember NAME] [--from NAME] [--key=KEY] CODE|LINK
  ferry devices [list | rename NAME NEW-NAME | forget NAME]
  ferry --help | --version

send       Registers a code, prints "Code: <code>" and waits for the receiver.
           Exits once the receiver confirms delivery.
receive    Joins the sender by its code, shows what is offered and asks before
           anything is written (unless --yes). Files are staged as <name>.part
           and renamed only after their byte count is verified; an existing
           name is never overwritten (it becomes "name (1).ext").
devices    Lists the remembered devices, renames or forgets one.

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
  --yes, -y      Accept the offer without asking
  --no-report    Do not add the received byte count to the server's anonymous counter
  --key=KEY      The key of the sender's link (the part after "key="), when only the
                 code was typed
  --verify       Ask "Do the words match on the other device?" before any file data
                 moves; no (or a device that cannot show words) stops the transfer
  --name NAME    This device's name, shown to the other device ("From NAME");
                 by default the computer's name
  --remember NAME  Once the transfer is done, remember the other device as NAME; asks
                 to confirm the words first (unless the secret link matched). Next
                 time it shows as "Remembered device “NAME”", verified automatically
  --text TEXT    Send TEXT as a text message instead of files (- reads standard input);
                 another Ferry shows it, printed after a line "Text:", others save it
                 as message.txt
  --to NAME, --from NAME
                 Send to / receive from the remembered device NAME only: any other
                 device is refused before a byte moves

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
  ${EXIT.interrupted}  interrupted (Ctrl-C); another Ferry reads "Stopped by the other person." and
       exits ${EXIT.failed}
`;
