<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AlignmentStyle</name>
    <message>
        <source>Aligned</source>
        <translation>Ausgerichtet</translation>
    </message>
    <message>
        <source>Sector-aligned</source>
        <translation>Sektorausgerichtet</translation>
    </message>
    <message>
        <source>Misaligned</source>
        <translation>Falsch ausgerichtet</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>Container</translation>
    </message>
</context>
<context>
    <name>AlignmentVerdict</name>
    <message>
        <source>%1 MiB</source>
        <extracomment>A size used as an adjective before a noun, as in &quot;a 1 MiB boundary&quot;.</extracomment>
        <translation>%1-MiB</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <extracomment>A size used as an adjective before a noun, as in &quot;a 4 KiB boundary&quot;.</extracomment>
        <translation>%1-KiB</translation>
    </message>
    <message>
        <source>%1-byte</source>
        <extracomment>A size used as an adjective before a noun, as in &quot;a 512-byte boundary&quot;.</extracomment>
        <translation>%1-Byte</translation>
    </message>
    <message>
        <source>starts on a %1 boundary</source>
        <extracomment>Completes &quot;The partition ...&quot;. %1 is a size such as &quot;1 MiB&quot;.</extracomment>
        <translation>beginnt an einer %1-Grenze</translation>
    </message>
    <message>
        <source>starts on a %1 physical sector but %2 bytes past a %3 boundary</source>
        <extracomment>Completes &quot;The partition ...&quot;. %1 and %3 are sizes such as &quot;4 KiB&quot;, %2 a number.</extracomment>
        <translation>beginnt an einem physischen %1-Sektor, aber %2 Bytes hinter einer %3-Grenze</translation>
    </message>
    <message>
        <source>starts %1 bytes past a %2 boundary: every write straddles two physical sectors</source>
        <extracomment>Completes &quot;The partition ...&quot;. %1 is a number of bytes, %2 a size such as &quot;4 KiB&quot;.</extracomment>
        <translation>beginnt %1 Bytes hinter einer %2-Grenze: jeder Schreibzugriff überspannt zwei physische Sektoren</translation>
    </message>
    <message>
        <source>extended partition: a container for logical partitions, exempt</source>
        <translation>erweiterte Partition: ein Container für logische Partitionen, ausgenommen</translation>
    </message>
</context>
<context>
    <name>ApplyDialog</name>
    <message>
        <source>Apply Pending Operations</source>
        <translation>Ausstehende Vorgänge anwenden</translation>
    </message>
    <message>
        <source>Ready to apply %1 to %2.</source>
        <translation>Bereit, %1 auf %2 anzuwenden.</translation>
    </message>
    <message>
        <source>%v of %m</source>
        <translation>%v von %m</translation>
    </message>
    <message>
        <source>Apply log</source>
        <translation>Protokoll der Anwendung</translation>
    </message>
    <message>
        <source>&amp;Save Log…</source>
        <translation>Protokoll &amp;speichern…</translation>
    </message>
    <message>
        <source>Applying %1 to %2…</source>
        <translation>%1 wird auf %2 angewendet …</translation>
    </message>
    <message>
        <source>Applying %1 to %2</source>
        <translation>%1 wird auf %2 angewendet</translation>
    </message>
    <message>
        <source>libparted: %1 → %2</source>
        <translation>libparted: %1 → %2</translation>
    </message>
    <message>
        <source>(cancelled)</source>
        <translation>(abgebrochen)</translation>
    </message>
    <message>
        <source>Applying operation %1 of %2…</source>
        <translation>Vorgang %1 von %2 wird angewendet …</translation>
    </message>
    <message>
        <source>Done: %1 applied to %2.</source>
        <translation>Fertig: %1 auf %2 angewendet.</translation>
    </message>
    <message>
        <source>The previous partition table is saved in %1.</source>
        <translation>Die bisherige Partitionstabelle ist in %1 gesichert.</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Partition table backup: %1</source>
        <translation>Sicherung der Partitionstabelle: %1</translation>
    </message>
    <message>
        <source>Save Apply Log</source>
        <translation>Protokoll der Anwendung speichern</translation>
    </message>
    <message>
        <source>Log files (*.log *.txt);;All files (*)</source>
        <translation>Protokolldateien (*.log *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>&amp;Abbrechen</translation>
    </message>
    <message>
        <source>Stops at the next safe point: before the next operation, or where a move&apos;s journal can finish it later.</source>
        <translation>Hält an der nächsten sicheren Stelle an: vor dem nächsten Vorgang oder dort, wo das Journal einer Verschiebung den Rest später beenden kann.</translation>
    </message>
    <message>
        <source>A Question While Writing</source>
        <translation>Eine Frage beim Schreiben</translation>
    </message>
    <message>
        <source>libparted, the library that writes partition tables, stopped to ask about %1. Its own words are below; Cancel (or No) changes nothing more at this step.</source>
        <translation>libparted, die Bibliothek, die Partitionstabellen schreibt, hat angehalten, um zu %1 zu fragen. Ihre eigenen Worte stehen unten; Abbrechen (oder Nein) ändert in diesem Schritt nichts weiter.</translation>
    </message>
    <message>
        <source>verifying</source>
        <translation>prüfen</translation>
    </message>
    <message>
        <source>copying</source>
        <translation>kopieren</translation>
    </message>
    <message>
        <source>moving</source>
        <translation>verschieben</translation>
    </message>
    <message>
        <source>Partition %1, %2: %3 of %4</source>
        <translation>Partition %1, %2: %3 von %4</translation>
    </message>
    <message>
        <source> · %1/s</source>
        <translation> · %1/s</translation>
    </message>
    <message>
        <source> · %1 left</source>
        <translation> · noch %1</translation>
    </message>
    <message>
        <source>Cancelling: Partwise stops at the next safe point…</source>
        <translation>Abbrechen: Partwise hält an der nächsten sicheren Stelle an …</translation>
    </message>
    <message>
        <source>Cancel asked for: stopping at the next safe point.</source>
        <translation>Abbrechen verlangt: Halt an der nächsten sicheren Stelle.</translation>
    </message>
    <message>
        <source>Cancelled after %1 of %2 operations.</source>
        <translation>Abgebrochen nach %1 von %2 Vorgängen.</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 operations.</source>
        <translation>Angehalten nach %1 von %2 Vorgängen.</translation>
    </message>
    <message>
        <source>Done: %1.</source>
        <translation>Erledigt: %1.</translation>
    </message>
    <message>
        <source>Stopped partway: %1.</source>
        <translation>Mittendrin angehalten: %1.</translation>
    </message>
    <message>
        <source>Not done: %1.</source>
        <translation>Nicht ausgeführt: %1.</translation>
    </message>
    <message>
        <source>Its journal (%1) lets Resume finish the rest, or partwise-cli resume %2.</source>
        <translation>Mit seinem Journal (%1) beendet „Fortsetzen“ den Rest, oder partwise-cli resume %2.</translation>
    </message>
</context>
<context>
    <name>ApplyUndo</name>
    <message>
        <source>it formatted a new partition where a deleted one may have been, and the old table would point at the new filesystem</source>
        <translation>es hat eine neue Partition formatiert, wo eine gelöschte gewesen sein kann, und die alte Tabelle würde auf das neue Dateisystem zeigen</translation>
    </message>
    <message>
        <source>it repaired the filesystem of partition %1</source>
        <translation>es hat das Dateisystem von Partition %1 repariert</translation>
    </message>
    <message>
        <source>it formatted partition %1</source>
        <translation>es hat Partition %1 formatiert</translation>
    </message>
    <message>
        <source>it changed the filesystem of partition %1</source>
        <translation>es hat das Dateisystem von Partition %1 geändert</translation>
    </message>
    <message>
        <source>it resized or moved partition %1 and its filesystem</source>
        <translation>es hat Partition %1 und ihr Dateisystem in der Größe geändert oder verschoben</translation>
    </message>
    <message>
        <source>it copied a partition&apos;s data onto the disk</source>
        <translation>es hat die Daten einer Partition auf den Datenträger kopiert</translation>
    </message>
    <message>
        <source>The table of %1 is back, but the kernel could not be told of it (%2): run `partx -u %1` or reboot before using its partitions.</source>
        <translation>Die Tabelle von %1 ist wiederhergestellt, aber der Kernel konnte nicht davon unterrichtet werden (%2): Vor der Nutzung der Partitionen `partx -u %1` ausführen oder neu starten.</translation>
    </message>
    <message>
        <source>The last Apply cannot be undone: %1, and a table backup puts back the table, not data.</source>
        <translation>Das letzte Anwenden lässt sich nicht rückgängig machen: %1, und eine Tabellensicherung stellt die Tabelle wieder her, keine Daten.</translation>
    </message>
</context>
<context>
    <name>BootText</name>
    <message>
        <source>GRUB Legacy (0.9x), loading its stage 2 from a fixed sector</source>
        <translation>GRUB Legacy (0.9x), lädt seine Stufe 2 von einem festen Sektor</translation>
    </message>
    <message>
        <source>syslinux, which starts the active partition</source>
        <translation>syslinux, startet die aktive Partition</translation>
    </message>
    <message>
        <source>Windows (DOS to XP), which starts the active partition</source>
        <translation>Windows (DOS bis XP), startet die aktive Partition</translation>
    </message>
    <message>
        <source>Windows (Vista and later), which starts the active partition</source>
        <translation>Windows (ab Vista), startet die aktive Partition</translation>
    </message>
    <message>
        <source>code Partwise does not recognise</source>
        <translation>Code, den Partwise nicht erkennt</translation>
    </message>
    <message>
        <source>GRUB 2</source>
        <translation>GRUB 2</translation>
    </message>
    <message>
        <source>GRUB 2 → core.img at sector %1, in the gap before the first partition</source>
        <translation>GRUB 2 → core.img bei Sektor %1, in der Lücke vor der ersten Partition</translation>
    </message>
    <message>
        <source>GRUB 2 → core.img at sector %1, in BIOS boot partition %2</source>
        <translation>GRUB 2 → core.img bei Sektor %1, in BIOS-Boot-Partition %2</translation>
    </message>
    <message>
        <source>GRUB 2 → core.img at sector %1, inside partition %2</source>
        <translation>GRUB 2 → core.img bei Sektor %1, innerhalb von Partition %2</translation>
    </message>
    <message>
        <source>GRUB 2 → sector %1, where no core.img is found: it does not boot</source>
        <translation>GRUB 2 → Sektor %1, wo kein core.img zu finden ist: Es startet nicht</translation>
    </message>
    <message>
        <source>partition %1, holding GRUB&apos;s core.img</source>
        <translation>Partition %1, enthält GRUBs core.img</translation>
    </message>
    <message>
        <source>partition %1</source>
        <translation>Partition %1</translation>
    </message>
    <message>
        <source>%1 “%2” → partition %3</source>
        <extracomment>%1 an entry such as Boot0001, %2 its label, %3 a partition number.</extracomment>
        <translation>%1 „%2“ → Partition %3</translation>
    </message>
    <message>
        <source>GRUB 2 in its boot sector, loading core.img from sector %1</source>
        <translation>GRUB 2 im Bootsektor, lädt core.img ab Sektor %1</translation>
    </message>
    <message>
        <source>GRUB 2 in its boot sector</source>
        <translation>GRUB 2 im Bootsektor</translation>
    </message>
    <message>
        <source>%1 in its boot sector</source>
        <translation>%1 im Bootsektor</translation>
    </message>
    <message>
        <source>Windows NTLDR (2000, XP) in its boot sector</source>
        <translation>Windows NTLDR (2000, XP) im Bootsektor</translation>
    </message>
    <message>
        <source>Windows BOOTMGR (Vista and later) in its boot sector</source>
        <translation>Windows BOOTMGR (ab Vista) im Bootsektor</translation>
    </message>
    <message>
        <source>EFI system partition</source>
        <translation>EFI-Systempartition</translation>
    </message>
    <message>
        <source>BIOS boot partition holding GRUB&apos;s core.img</source>
        <translation>BIOS-Boot-Partition mit GRUBs core.img</translation>
    </message>
    <message>
        <source>BIOS boot partition</source>
        <translation>BIOS-Boot-Partition</translation>
    </message>
    <message>
        <source>records its start as sector %1</source>
        <translation>verzeichnet ihren Anfang als Sektor %1</translation>
    </message>
    <message>
        <source>its \Boot\BCD names partitions at bytes %1</source>
        <translation>ihr \Boot\BCD nennt Partitionen bei Byte %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>its \Boot\BCD could not be read</source>
        <translation>ihr \Boot\BCD war nicht lesbar</translation>
    </message>
    <message>
        <source>firmware entry %1 names it</source>
        <translation>Firmware-Eintrag %1 nennt sie</translation>
    </message>
    <message>
        <source>the generic code libparted and Partwise write with a new MBR table, which starts the active partition</source>
        <translation>der allgemeine Code, den libparted und Partwise mit einer neuen MBR-Tabelle schreiben; er startet die aktive Partition</translation>
    </message>
</context>
<context>
    <name>CheckDialog</name>
    <message>
        <source>Check %1</source>
        <translation>%1 prüfen</translation>
    </message>
    <message>
        <source>Check the %1 filesystem on %2 with its own fsck tool. Without repair, nothing on the disk is changed.</source>
        <translation>Das %1-Dateisystem auf %2 mit seinem eigenen fsck-Werkzeug prüfen. Ohne Reparatur wird auf dem Datenträger nichts verändert.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>&amp;Repair problems that are found</source>
        <translation>&amp;Gefundene Fehler reparieren</translation>
    </message>
    <message>
        <source>&amp;Add to Queue</source>
        <translation>Zur &amp;Warteschlange hinzufügen</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>Connect to Machine</source>
        <translation>Mit Rechner verbinden</translation>
    </message>
    <message>
        <source>Show the disks of another machine: a server, or a PC started from a live USB. Partwise logs in with ssh (your key or ssh&apos;s own password prompt) and starts &lt;tt&gt;partwise-cli serve&lt;/tt&gt; there, so the machine needs partwise-cli installed.</source>
        <translation>Die Datenträger eines anderen Rechners anzeigen: eines Servers oder eines PCs, der von einem Live-USB-Stick gestartet wurde. Partwise meldet sich mit ssh an (mit Ihrem Schlüssel oder über die Passwortabfrage von ssh) und startet dort &lt;tt&gt;partwise-cli serve&lt;/tt&gt;; auf dem Rechner muss partwise-cli installiert sein.</translation>
    </message>
    <message>
        <source>root@server or user@192.168.1.20</source>
        <translation>root@server oder benutzer@192.168.1.20</translation>
    </message>
    <message>
        <source>&amp;Machine:</source>
        <translation>&amp;Rechner:</translation>
    </message>
    <message>
        <source>&amp;Run the helper with sudo (the account is not root; sudo must not ask for a password)</source>
        <translation>Helfer mit sudo &amp;ausführen (das Konto ist nicht root; sudo darf nicht nach einem Passwort fragen)</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
</context>
<context>
    <name>CopyController</name>
    <message>
        <source>&amp;Copy Disk To…</source>
        <translation>Datenträger &amp;kopieren nach…</translation>
    </message>
    <message>
        <source>Copy this disk onto another disk or a new image, every partition on the grain</source>
        <translation>Diesen Datenträger auf einen anderen Datenträger oder in ein neues Abbild kopieren, jede Partition auf dem Raster</translation>
    </message>
    <message>
        <source>The helper that serves %1 is not running.</source>
        <translation>Der Helfer, der %1 bedient, läuft nicht.</translation>
    </message>
    <message>
        <source>&amp;Finish Interrupted Copy…</source>
        <translation>&amp;Unterbrochene Kopie abschließen…</translation>
    </message>
    <message>
        <source>Finish the copy that stopped part-way onto this disk</source>
        <translation>Die Kopie abschließen, die auf diesem Datenträger mittendrin angehalten hat</translation>
    </message>
    <message>
        <source>Interrupted Copy</source>
        <translation>Unterbrochene Kopie</translation>
    </message>
    <message>
        <source>A copy onto %1 was interrupted. Until it is finished, %1 holds no partition table; its journal (%2) lets Partwise finish it. Finish it now?</source>
        <translation>Eine Kopie auf %1 wurde unterbrochen. Bis sie abgeschlossen ist, hat %1 keine Partitionstabelle; ihr Journal (%2) erlaubt Partwise, sie abzuschließen. Jetzt abschließen?</translation>
    </message>
    <message>
        <source>&amp;Finish Now</source>
        <translation>Jetzt &amp;abschließen</translation>
    </message>
    <message>
        <source>&amp;Later</source>
        <translation>&amp;Später</translation>
    </message>
    <message>
        <source>Open a disk or a disk image first.</source>
        <translation>Öffnen Sie zuerst einen Datenträger oder ein Datenträgerabbild.</translation>
    </message>
    <message>
        <source>The Copy Disk wizard is open.</source>
        <translation>Der Assistent zum Kopieren des Datenträgers ist geöffnet.</translation>
    </message>
    <message>
        <source>This disk has no partition table: there are no partitions to copy.</source>
        <translation>Dieser Datenträger hat keine Partitionstabelle: Es gibt keine Partitionen zu kopieren.</translation>
    </message>
    <message>
        <source>No copy onto this disk was interrupted.</source>
        <translation>Keine Kopie auf diesen Datenträger wurde unterbrochen.</translation>
    </message>
    <message>
        <source>The last job on this disk was a copy onto it: its data is new, and a table backup cannot bring the old back.</source>
        <translation>Der letzte Auftrag auf diesem Datenträger war eine Kopie darauf: Seine Daten sind neu, und eine Tabellensicherung bringt die alten nicht zurück.</translation>
    </message>
</context>
<context>
    <name>CopyOptionsPage</name>
    <message>
        <source>How to Copy</source>
        <translation>Wie kopiert wird</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>Partitions start on a multiple of (&amp;grain):</source>
        <translation>Partitionen beginnen auf einem Vielfachen von (&amp;Raster):</translation>
    </message>
    <message>
        <source>Keep the source&apos;s</source>
        <translation>Wie die Quelle</translation>
    </message>
    <message>
        <source>GPT</source>
        <translation>GPT</translation>
    </message>
    <message>
        <source>Partition &amp;table:</source>
        <translation>Partitions&amp;tabelle:</translation>
    </message>
    <message>
        <source>When the target is larger:</source>
        <translation>Wenn das Ziel größer ist:</translation>
    </message>
    <message>
        <source>&amp;Keep every partition&apos;s size</source>
        <translation>Die Größe jeder Partition &amp;behalten</translation>
    </message>
    <message>
        <source>Grow the &amp;last partition to fill the target</source>
        <translation>Die &amp;letzte Partition bis zum Ende des Ziels vergrößern</translation>
    </message>
    <message>
        <source>Grow every partition in &amp;proportion</source>
        <translation>Jede Partition im &amp;Verhältnis vergrößern</translation>
    </message>
    <message>
        <source>Where will the copy be used?</source>
        <translation>Wo wird die Kopie verwendet?</translation>
    </message>
    <message>
        <source>It &amp;replaces the old disk: keep every UUID, label and disk id</source>
        <translation>Sie &amp;ersetzt den alten Datenträger: jede UUID, jede Bezeichnung und jede Datenträger-ID bleiben</translation>
    </message>
    <message>
        <source>It will sit be&amp;side the old disk on this computer: new UUIDs and disk ids</source>
        <translation>Sie kommt &amp;neben den alten Datenträger in diesen Computer: neue UUIDs und Datenträger-IDs</translation>
    </message>
    <message>
        <source>Two disks with the same ids on one computer confuse mounting and booting, so a copy kept beside its source needs new ones.</source>
        <translation>Zwei Datenträger mit denselben IDs in einem Computer bringen Einhängen und Starten durcheinander; eine Kopie neben ihrer Quelle braucht deshalb neue.</translation>
    </message>
</context>
<context>
    <name>CopyPlanPage</name>
    <message>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>used blocks</source>
        <translation>belegte Blöcke</translation>
    </message>
    <message>
        <source>every byte</source>
        <translation>jedes Byte</translation>
    </message>
    <message>
        <source>made anew (swap)</source>
        <translation>neu angelegt (Swap)</translation>
    </message>
    <message>
        <source>shrunk, then used blocks</source>
        <translation>verkleinert, dann belegte Blöcke</translation>
    </message>
    <message>
        <source>its table entries only</source>
        <translation>nur ihre Tabelleneinträge</translation>
    </message>
    <message>
        <source>The Plan</source>
        <translation>Der Plan</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Now (sectors)</source>
        <translation>Jetzt (Sektoren)</translation>
    </message>
    <message>
        <source>On the copy (sectors)</source>
        <translation>Auf der Kopie (Sektoren)</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>To copy</source>
        <translation>Zu kopieren</translation>
    </message>
    <message>
        <source>How</source>
        <translation>Wie</translation>
    </message>
    <message>
        <source>I will repair booting as shown and &amp;accept the change</source>
        <translation>Ich repariere das Starten wie gezeigt und &amp;nehme die Änderung an</translation>
    </message>
    <message>
        <source>The image %1 could not be made: %2</source>
        <translation>Das Abbild %1 konnte nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>I understand that everything on %1 will be &amp;lost</source>
        <translation>Mir ist klar, dass alles auf %1 ver&amp;loren geht</translation>
    </message>
    <message>
        <source>Reading both disks and planning…</source>
        <translation>Beide Datenträger werden gelesen und geplant…</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 to copy, about %2 s; the new table: %3, grain %4.</source>
        <translation>%1 zu kopieren, etwa %2 s; die neue Tabelle: %3, Raster %4.</translation>
    </message>
    <message>
        <source>The copy gets new filesystem UUIDs and disk ids.</source>
        <translation>Die Kopie erhält neue Dateisystem-UUIDs und Datenträger-IDs.</translation>
    </message>
    <message>
        <source>The copy keeps every UUID, label and disk id.</source>
        <translation>Die Kopie behält jede UUID, jede Bezeichnung und jede Datenträger-ID.</translation>
    </message>
    <message>
        <source>This copy cannot run:</source>
        <translation>Diese Kopie kann nicht laufen:</translation>
    </message>
    <message>
        <source>Booting:</source>
        <translation>Starten:</translation>
    </message>
    <message>
        <source>What will not boot from the copy, and its repair:</source>
        <translation>Was von der Kopie nicht startet, und wie es repariert wird:</translation>
    </message>
    <message>
        <source>As partwise-cli copy says it:</source>
        <translation>So sagt es partwise-cli copy:</translation>
    </message>
    <message>
        <source>Partwise will copy %1 onto %2 as below.</source>
        <translation>Partwise kopiert %1 wie unten gezeigt auf %2.</translation>
    </message>
    <message>
        <source>Nothing can be started: see why below.</source>
        <translation>Nichts kann gestartet werden: Der Grund steht unten.</translation>
    </message>
    <message>
        <source>A copy onto this target was interrupted (%1): finish it first with Drive → Finish Interrupted Copy, or “partwise-cli resume”.</source>
        <translation>Eine Kopie auf dieses Ziel wurde unterbrochen (%1): Schließen Sie sie zuerst mit Laufwerk → Unterbrochene Kopie abschließen oder „partwise-cli resume“ ab.</translation>
    </message>
</context>
<context>
    <name>CopyResultPage</name>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Each copied filesystem&apos;s check:</source>
        <translation>Die Prüfung jedes kopierten Dateisystems:</translation>
    </message>
    <message>
        <source>%1 is now a copy of %2, every partition on the grain.</source>
        <translation>%1 ist jetzt eine Kopie von %2, jede Partition auf dem Raster.</translation>
    </message>
    <message>
        <source>The copy failed: %1</source>
        <translation>Die Kopie ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>The target&apos;s former table was saved in %1.</source>
        <translation>Die bisherige Tabelle des Ziels wurde in %1 gesichert.</translation>
    </message>
    <message>
        <source>The interrupted copy onto %1 is finished, every partition on the grain.</source>
        <translation>Die unterbrochene Kopie auf %1 ist abgeschlossen, jede Partition auf dem Raster.</translation>
    </message>
    <message>
        <source>The copy stopped: %1
Its journal (%2) lets it be finished: Drive → Finish Interrupted Copy, or “partwise-cli resume %3”. Until then %4 holds no partition table.</source>
        <translation>Die Kopie hat angehalten: %1
Ihr Journal (%2) erlaubt, sie abzuschließen: Laufwerk → Unterbrochene Kopie abschließen oder „partwise-cli resume %3“. Bis dahin hat %4 keine Partitionstabelle.</translation>
    </message>
</context>
<context>
    <name>CopyRunPage</name>
    <message>
        <source>Copying</source>
        <translation>Kopieren läuft</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>&amp;Weiter</translation>
    </message>
    <message>
        <source>Reading both disks again and starting the copy…</source>
        <translation>Beide Datenträger werden erneut gelesen und die Kopie beginnt…</translation>
    </message>
    <message>
        <source>verifying</source>
        <translation>wird überprüft</translation>
    </message>
    <message>
        <source>preparing</source>
        <translation>wird vorbereitet</translation>
    </message>
    <message>
        <source>finishing</source>
        <translation>wird abgeschlossen</translation>
    </message>
    <message>
        <source>copying</source>
        <translation>wird kopiert</translation>
    </message>
    <message>
        <source>Partition %1 (%2 of %3): %4, %5/s, about %6 s left</source>
        <translation>Partition %1 (%2 von %3): %4, %5/s, noch etwa %6 s</translation>
    </message>
    <message>
        <source>Stopping at the next safe point…</source>
        <translation>Hält am nächsten sicheren Punkt an…</translation>
    </message>
    <message>
        <source>The copy is finished.</source>
        <translation>Die Kopie ist fertig.</translation>
    </message>
    <message>
        <source>The copy stopped.</source>
        <translation>Die Kopie wurde angehalten.</translation>
    </message>
    <message>
        <source>Cancel stops the copy at a safe point; it can be finished later with Drive → Finish Interrupted Copy.</source>
        <translation>Abbrechen hält die Kopie an einem sicheren Punkt an; sie lässt sich später mit Laufwerk → Unterbrochene Kopie abschließen zu Ende führen.</translation>
    </message>
    <message>
        <source>Finishing the interrupted copy onto %1…</source>
        <translation>Die unterbrochene Kopie auf %1 wird abgeschlossen…</translation>
    </message>
</context>
<context>
    <name>CopyTargetPage</name>
    <message>
        <source>Where the Copy Goes</source>
        <translation>Wohin kopiert wird</translation>
    </message>
    <message>
        <source>%1 (%2) is copied, every partition placed on the grain. Everything on the target is replaced.</source>
        <translation>%1 (%2) wird kopiert, jede Partition auf dem Raster. Alles auf dem Ziel wird ersetzt.</translation>
    </message>
    <message>
        <source>Onto another &amp;disk:</source>
        <translation>Auf einen anderen &amp;Datenträger:</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Into a new &amp;image file:</source>
        <translation>In eine neue &amp;Abbilddatei:</translation>
    </message>
    <message>
        <source>Bro&amp;wse…</source>
        <translation>D&amp;urchsuchen…</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>Da&amp;tei:</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source>Si&amp;ze:</source>
        <translation>&amp;Größe:</translation>
    </message>
    <message>
        <source>The image takes room on its disk only for the data copied (a sparse file).</source>
        <translation>Das Abbild belegt auf seinem Datenträger nur Platz für die kopierten Daten (eine Sparse-Datei).</translation>
    </message>
    <message>
        <source>New Image File</source>
        <translation>Neue Abbilddatei</translation>
    </message>
    <message>
        <source>Disk images (*.img *.raw);;All files (*)</source>
        <translation>Datenträgerabbilder (*.img *.raw);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>CopyWizard</name>
    <message>
        <source>Copy Disk — %1</source>
        <translation>Datenträger kopieren — %1</translation>
    </message>
    <message>
        <source>Finish Copy — %1</source>
        <translation>Kopie abschließen — %1</translation>
    </message>
</context>
<context>
    <name>CopyWorker</name>
    <message>
        <source>The disks changed since the plan was made: plan again. Nothing was written.</source>
        <translation>Die Datenträger haben sich seit dem Plan geändert: Planen Sie erneut. Nichts wurde geschrieben.</translation>
    </message>
</context>
<context>
    <name>CreatePartitionDialog</name>
    <message>
        <source>Create Partition</source>
        <translation>Partition erstellen</translation>
    </message>
    <message>
        <source>Unallocated space of %1, sectors %2 – %3 (%4-byte sectors)</source>
        <translation>Nicht zugewiesener Bereich von %1, Sektoren %2 – %3 (Sektoren zu %4 Byte)</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>&amp;Units:</source>
        <translation>&amp;Einheit:</translation>
    </message>
    <message>
        <source>Free space before</source>
        <translation>Freier Platz davor</translation>
    </message>
    <message>
        <source>Free space &amp;before:</source>
        <translation>Freier Platz da&amp;vor:</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>At its maximum the partition takes the rest of the free space.</source>
        <translation>Beim Höchstwert belegt die Partition den ganzen restlichen freien Platz.</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>&amp;Größe:</translation>
    </message>
    <message>
        <source>Free space after:</source>
        <translation>Freier Platz danach:</translation>
    </message>
    <message>
        <source>Logical</source>
        <translation>Logisch</translation>
    </message>
    <message>
        <source>Primary</source>
        <translation>Primär</translation>
    </message>
    <message>
        <source>Extended</source>
        <translation>Erweitert</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Typ:</translation>
    </message>
    <message>
        <source>GPT partition name (optional)</source>
        <translation>GPT-Partitionsname (optional)</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>unformatted</source>
        <translation>unformatiert</translation>
    </message>
    <message>
        <source>&amp;Filesystem:</source>
        <translation>&amp;Dateisystem:</translation>
    </message>
    <message>
        <source>Filesystem label (optional)</source>
        <translation>Dateisystembezeichnung (optional)</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>&amp;Bezeichnung:</translation>
    </message>
    <message>
        <source>Fla&amp;gs:</source>
        <translation>&amp;Markierungen:</translation>
    </message>
    <message>
        <source>&amp;Add to Queue</source>
        <translation>Zur &amp;Warteschlange hinzufügen</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>libparted did not place the partition here.</source>
        <translation>libparted hat die Partition nicht hier angelegt.</translation>
    </message>
    <message>
        <source>Paste Partition</source>
        <translation>Partition einfügen</translation>
    </message>
    <message>
        <source>Partition %1 of %2: %3, %4</source>
        <translation>Partition %1 von %2: %3, %4</translation>
    </message>
    <message>
        <source>, labelled “%1”</source>
        <translation>, Bezeichnung „%1“</translation>
    </message>
    <message>
        <source>Paste:</source>
        <translation>Einfügen:</translation>
    </message>
    <message>
        <source>, flags %1</source>
        <translation>, Flags %1</translation>
    </message>
    <message>
        <source>, named “%1”</source>
        <translation>, Name „%1“</translation>
    </message>
    <message>
        <source>At least what the source&apos;s filesystem fills, or as little as its own tool can shrink it to once that is measured; a larger partition gets its filesystem grown, a smaller one shrunk on the way.</source>
        <translation>Mindestens so viel, wie das Dateisystem der Quelle füllt, oder so wenig, wie sein eigenes Werkzeug es verkleinern kann, sobald das gemessen ist; in einer größeren Partition wird das Dateisystem vergrößert, in einer kleineren unterwegs verkleinert.</translation>
    </message>
</context>
<context>
    <name>DiskListModel</name>
    <message>
        <source>%1 (image)</source>
        <translation>%1 (Abbild)</translation>
    </message>
    <message>
        <source>%1 — reading…</source>
        <translation>%1 — wird gelesen …</translation>
    </message>
    <message>
        <source>%1 — cannot be read</source>
        <translation>%1 — nicht lesbar</translation>
    </message>
    <message>
        <source>%1/%2 B sectors</source>
        <translation>Sektoren zu %1/%2 B</translation>
    </message>
    <message>
        <source>SMART good</source>
        <translation>SMART gut</translation>
    </message>
    <message>
        <source>⚠ SMART warning</source>
        <translation>⚠ SMART-Warnung</translation>
    </message>
    <message>
        <source>⚠ SMART FAILING</source>
        <translation>⚠ SMART: FÄLLT AUS</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>schreibgeschützt</translation>
    </message>
    <message>
        <source>%1 is another disk now (%2; it was %3)</source>
        <translation>%1 ist jetzt ein anderer Datenträger (%2; vorher %3)</translation>
    </message>
    <message>
        <source>%1 can no longer be read</source>
        <translation>%1 kann nicht mehr gelesen werden</translation>
    </message>
    <message>
        <source>%1 changed size outside Partwise (%2, it was %3)</source>
        <translation>%1 hat außerhalb von Partwise seine Größe geändert (%2, vorher %3)</translation>
    </message>
    <message>
        <source>the partition table of %1 was changed outside Partwise</source>
        <translation>die Partitionstabelle von %1 wurde außerhalb von Partwise geändert</translation>
    </message>
</context>
<context>
    <name>DiskMapPainter</name>
    <message>
        <source>no partition table: the whole disk holds %1</source>
        <translation>keine Partitionstabelle: Der ganze Datenträger enthält %1</translation>
    </message>
    <message>
        <source>no partition table</source>
        <translation>keine Partitionstabelle</translation>
    </message>
    <message>
        <source>sectors %1 B logical / %2 B physical</source>
        <translation>Sektoren %1 B logisch / %2 B physisch</translation>
    </message>
    <message>
        <source>%1 (extended)</source>
        <translation>%1 (erweitert)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>misaligned</source>
        <translation>falsch ausgerichtet</translation>
    </message>
    <message>
        <source>on a physical sector, not the grain</source>
        <translation>auf einem physischen Sektor, nicht auf dem Raster</translation>
    </message>
    <message>
        <source>grain %1, physical sector checked as %2 B</source>
        <translation>Raster %1, physischer Sektor geprüft als %2 B</translation>
    </message>
    <message>
        <source>No disk selected</source>
        <translation>Kein Datenträger ausgewählt</translation>
    </message>
    <message>
        <source>Disk image</source>
        <translation>Datenträgerabbild</translation>
    </message>
    <message>
        <source>“%1”</source>
        <extracomment>A filesystem label in the language&apos;s quotation marks.</extracomment>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>LUKS/LVM data inside misaligned</source>
        <translation>LUKS-/LVM-Daten darin falsch ausgerichtet</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>schreibgeschützt</translation>
    </message>
    <message>
        <source>free</source>
        <extracomment>A very narrow unallocated region on the disk map.</extracomment>
        <translation>frei</translation>
    </message>
</context>
<context>
    <name>DiskMapWidget</name>
    <message>
        <source>Disk map</source>
        <translation>Datenträgerkarte</translation>
    </message>
    <message>
        <source>%1: no misaligned partitions</source>
        <translation>%1: keine falsch ausgerichteten Partitionen</translation>
    </message>
    <message>
        <source>%1: misaligned partitions: %2</source>
        <translation>%1: falsch ausgerichtete Partitionen: %2</translation>
    </message>
    <message>
        <source>Partwise disk map</source>
        <translation>Partwise-Datenträgerkarte</translation>
    </message>
</context>
<context>
    <name>DiskService</name>
    <message>
        <source>The image could not be created.</source>
        <translation>Das Abbild konnte nicht erstellt werden.</translation>
    </message>
    <message>
        <source>The demo disk could not be created.</source>
        <translation>Der Demo-Datenträger konnte nicht erstellt werden.</translation>
    </message>
</context>
<context>
    <name>DriveHealthText</name>
    <message>
        <source>is failing</source>
        <translation>fällt aus</translation>
    </message>
    <message>
        <source>shows signs of failing</source>
        <translation>zeigt Anzeichen eines Ausfalls</translation>
    </message>
    <message>
        <source>This drive %1 (%2): copy your data off first; moving data on a failing drive risks losing it.</source>
        <extracomment>%1 is &quot;is failing&quot; or &quot;shows signs of failing&quot;; %2 lists what SMART found.</extracomment>
        <translation>Dieses Laufwerk %1 (%2): Sichern Sie zuerst Ihre Daten; Daten auf einem ausfallenden Laufwerk zu verschieben, kann sie kosten.</translation>
    </message>
</context>
<context>
    <name>Editing</name>
    <message>
        <source>1 operation</source>
        <translation>1 Vorgang</translation>
    </message>
    <message>
        <source>%1 operations</source>
        <translation>%1 Vorgänge</translation>
    </message>
    <message>
        <source>1 partition</source>
        <translation>1 Partition</translation>
    </message>
    <message>
        <source>%1 partitions</source>
        <translation>%1 Partitionen</translation>
    </message>
</context>
<context>
    <name>EditingAvailability</name>
    <message>
        <source>Replace the partition table with a new, empty one: every partition on the disk is lost</source>
        <translation>Die Partitionstabelle durch eine neue, leere ersetzen: Alle Partitionen des Datenträgers gehen verloren</translation>
    </message>
    <message>
        <source>Create a partition in the selected unallocated space</source>
        <translation>Eine Partition im ausgewählten nicht zugeordneten Bereich anlegen</translation>
    </message>
    <message>
        <source>Change the size of the partition or move it</source>
        <translation>Die Größe der Partition ändern oder sie verschieben</translation>
    </message>
    <message>
        <source>Delete the selected partition: its files are lost</source>
        <translation>Die ausgewählte Partition löschen: Ihre Dateien gehen verloren</translation>
    </message>
    <message>
        <source>Create a new filesystem on the partition: its files are lost</source>
        <translation>Ein neues Dateisystem auf der Partition anlegen: Ihre Dateien gehen verloren</translation>
    </message>
    <message>
        <source>Change the label of the filesystem</source>
        <translation>Die Bezeichnung des Dateisystems ändern</translation>
    </message>
    <message>
        <source>Change the name of the GPT partition</source>
        <translation>Den Namen der GPT-Partition ändern</translation>
    </message>
    <message>
        <source>Set the flags of the partition (boot, esp, …)</source>
        <translation>Die Markierungen der Partition setzen (boot, esp, …)</translation>
    </message>
    <message>
        <source>Check the filesystem with its own tool, and repair it if asked</source>
        <translation>Das Dateisystem mit seinem eigenen Werkzeug prüfen und auf Wunsch reparieren</translation>
    </message>
    <message>
        <source>Give the %1 filesystem a new random UUID</source>
        <translation>Dem %1-Dateisystem eine neue zufällige UUID geben</translation>
    </message>
    <message>
        <source>Give the GPT partition a new unique GUID (its PARTUUID)</source>
        <translation>Der GPT-Partition eine neue eindeutige GUID geben (ihre PARTUUID)</translation>
    </message>
    <message>
        <source>Forget every pending operation</source>
        <translation>Alle ausstehenden Vorgänge verwerfen</translation>
    </message>
    <message>
        <source>Save the queue as a plan file for partwise-cli apply</source>
        <translation>Die Warteschlange als Plandatei für partwise-cli apply speichern</translation>
    </message>
    <message>
        <source>Queue the operations of a plan file</source>
        <translation>Die Vorgänge einer Plandatei in die Warteschlange stellen</translation>
    </message>
    <message>
        <source>Write the pending operations to the disk</source>
        <translation>Die ausstehenden Vorgänge auf den Datenträger schreiben</translation>
    </message>
    <message>
        <source>Select a partition first: this acts on a partition, not on unallocated space.</source>
        <translation>Wählen Sie zuerst eine Partition: Dies wirkt auf eine Partition, nicht auf nicht zugeordneten Bereich.</translation>
    </message>
    <message>
        <source>An extended partition only holds the logical partitions inside it: select one of them.</source>
        <translation>Eine erweiterte Partition enthält nur die logischen Partitionen darin: Wählen Sie eine davon.</translation>
    </message>
    <message>
        <source>Only GPT partitions have names; this disk has an MBR (msdos) table.</source>
        <translation>Nur GPT-Partitionen haben Namen; dieser Datenträger hat eine MBR-Tabelle (msdos).</translation>
    </message>
    <message>
        <source>Only GPT partitions have a GUID; this disk has an MBR (msdos) table.</source>
        <translation>Nur GPT-Partitionen haben eine GUID; dieser Datenträger hat eine MBR-Tabelle (msdos).</translation>
    </message>
    <message>
        <source>Partition %1 holds no filesystem Partwise recognises.</source>
        <translation>Partition %1 enthält kein Dateisystem, das Partwise erkennt.</translation>
    </message>
    <message>
        <source>Partwise cannot give a %1 filesystem a new UUID; it can for ext2/3/4, XFS, btrfs, FAT, exFAT, NTFS and swap.</source>
        <translation>Partwise kann einem %1-Dateisystem keine neue UUID geben; nur ext2/3/4, XFS, btrfs, FAT, exFAT, NTFS und Swap.</translation>
    </message>
    <message>
        <source>Resizing is not offered yet for a disk its helper reads; use partwise-cli apply on that machine, or realign.</source>
        <translation>Die Größenänderung wird für einen Datenträger, den sein Helfer liest, noch nicht angeboten; verwenden Sie partwise-cli apply auf jenem Rechner oder richten Sie neu aus.</translation>
    </message>
    <message>
        <source>%1 is read-only: Partwise reads it and writes nothing to it. Copy Partition and Drive → Copy Disk To… copy from it.</source>
        <translation>%1 ist schreibgeschützt: Partwise liest ihn und schreibt nichts darauf. Partition kopieren und Laufwerk → Datenträger kopieren nach … kopieren von ihm.</translation>
    </message>
    <message>
        <source>Open a disk or a disk image first.</source>
        <translation>Öffnen Sie zuerst einen Datenträger oder ein Datenträgerabbild.</translation>
    </message>
    <message>
        <source>No operations are pending.</source>
        <translation>Es stehen keine Vorgänge aus.</translation>
    </message>
    <message>
        <source>The pending operations cannot be applied: %1</source>
        <translation>Die ausstehenden Vorgänge können nicht angewendet werden: %1</translation>
    </message>
    <message>
        <source>This disk has no partition table: create one with New Partition Table… first.</source>
        <translation>Dieser Datenträger hat keine Partitionstabelle: Legen Sie zuerst mit „Neue Partitionstabelle …“ eine an.</translation>
    </message>
    <message>
        <source>Select unallocated space first: a new partition goes there.</source>
        <translation>Wählen Sie zuerst nicht zugeordneten Bereich: Dort entsteht die neue Partition.</translation>
    </message>
</context>
<context>
    <name>EditingController</name>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>Discard Pending Operations</source>
        <translation>Ausstehende Vorgänge verwerfen</translation>
    </message>
    <message>
        <source>1 pending operation on %1 will be lost: nothing has been written to the disk yet. Quit anyway?</source>
        <translation>1 ausstehender Vorgang auf %1 geht verloren: Auf den Datenträger wurde noch nichts geschrieben. Trotzdem beenden?</translation>
    </message>
    <message>
        <source>New Partition &amp;Table…</source>
        <translation>Neue Partitions&amp;tabelle…</translation>
    </message>
    <message>
        <source>&amp;New Partition…</source>
        <translation>&amp;Neue Partition…</translation>
    </message>
    <message>
        <source>&amp;Delete Partition</source>
        <translation>Partition &amp;löschen</translation>
    </message>
    <message>
        <source>&amp;Format…</source>
        <translation>&amp;Formatieren…</translation>
    </message>
    <message>
        <source>Filesystem &amp;Label…</source>
        <translation>Dateisystem&amp;bezeichnung…</translation>
    </message>
    <message>
        <source>Partition Na&amp;me…</source>
        <translation>Partition &amp;umbenennen…</translation>
    </message>
    <message>
        <source>Fla&amp;gs…</source>
        <translation>&amp;Markierungen…</translation>
    </message>
    <message>
        <source>C&amp;heck Filesystem…</source>
        <translation>Dateisystem &amp;prüfen…</translation>
    </message>
    <message>
        <source>Cl&amp;ear Pending Operations</source>
        <translation>Ausstehende Vorgänge &amp;verwerfen</translation>
    </message>
    <message>
        <source>Save &amp;Plan…</source>
        <translation>Plan &amp;speichern…</translation>
    </message>
    <message>
        <source>L&amp;oad Plan…</source>
        <translation>Plan la&amp;den…</translation>
    </message>
    <message>
        <source>&amp;Apply Pending Operations</source>
        <translation>&amp;Ausstehende Vorgänge anwenden</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>No disk is ready for editing.</source>
        <translation>Kein Datenträger ist zum Bearbeiten bereit.</translation>
    </message>
    <message>
        <source>No pending operations: the map shows %1 as it is.</source>
        <translation>Keine ausstehenden Vorgänge: Die Karte zeigt %1 so, wie er ist.</translation>
    </message>
    <message>
        <source>Preview: %1 as it will be after %2 — nothing has been written yet</source>
        <translation>Vorschau: %1 nach %2 — noch wurde nichts geschrieben</translation>
    </message>
    <message>
        <source>%1 pending. The map shows the disk as it will be after Apply; nothing has been written yet.</source>
        <translation>%1 ausstehend. Die Karte zeigt den Datenträger, wie er nach dem Anwenden sein wird; noch wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Operation %1 cannot be done: %2</source>
        <translation>Vorgang %1 ist nicht ausführbar: %2</translation>
    </message>
    <message>
        <source>Cannot Queue the Operation</source>
        <translation>Vorgang kann nicht eingereiht werden</translation>
    </message>
    <message>
        <source>“%1” cannot be done: %2</source>
        <translation>„%1“ ist nicht ausführbar: %2</translation>
    </message>
    <message>
        <source>Change the flags of partition %1</source>
        <translation>Markierungen von Partition %1 ändern</translation>
    </message>
    <message>
        <source>Clear Pending Operations</source>
        <translation>Ausstehende Vorgänge verwerfen</translation>
    </message>
    <message>
        <source>Forget %1 pending on %2? This cannot be undone.</source>
        <translation>%1 auf %2 verwerfen? Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Operation %1 of the plan cannot be done on %2: %3</source>
        <translation>Vorgang %1 des Plans ist auf %2 nicht ausführbar: %3</translation>
    </message>
    <message>
        <source>Load plan %1</source>
        <translation>Plan %1 laden</translation>
    </message>
    <message>
        <source>Save Plan</source>
        <translation>Plan speichern</translation>
    </message>
    <message>
        <source>Partwise plans (*.json);;All files (*)</source>
        <translation>Partwise-Pläne (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Load Plan</source>
        <translation>Plan laden</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>The queue cannot be applied: %1</source>
        <translation>Die Warteschlange kann nicht angewendet werden: %1</translation>
    </message>
    <message>
        <source>Apply Pending Operations</source>
        <translation>Ausstehende Vorgänge anwenden</translation>
    </message>
    <message>
        <source>Resi&amp;ze/Move…</source>
        <translation>&amp;Größe ändern/verschieben…</translation>
    </message>
    <message>
        <source>Moving data is journaled in memory here (%1, as in a live session): a power cut during the move would lose the journal, and with it the record of where the data is. Choose a folder for move journals on another disk in Preferences, or keep the computer on mains power.</source>
        <translation>Das Verschieben von Daten wird hier im Arbeitsspeicher protokolliert (%1, wie in einer Live-Sitzung): Ein Stromausfall während des Verschiebens würde das Journal löschen, und mit ihm die Aufzeichnung, wo die Daten liegen. Wählen Sie in den Einstellungen einen Ordner für Verschiebe-Journale auf einem anderen Datenträger, oder lassen Sie den Rechner am Netzstrom.</translation>
    </message>
    <message>
        <source>Realign</source>
        <translation>Neu ausrichten</translation>
    </message>
    <message>
        <source>%1 has pending operations. Realigning works on the disk as it is: apply or clear them first.</source>
        <translation>%1 hat ausstehende Vorgänge. Das Neuausrichten arbeitet auf dem Datenträger, wie er ist: Wenden Sie sie zuerst an oder verwerfen Sie sie.</translation>
    </message>
    <message>
        <source>%1 pending operations on %2 will be lost: nothing has been written yet. Quit anyway?</source>
        <translation>%1 ausstehende Vorgänge auf %2 gehen verloren: Es wurde noch nichts geschrieben. Trotzdem beenden?</translation>
    </message>
    <message>
        <source>What this does to booting:</source>
        <translation>Was das für den Start bedeutet:</translation>
    </message>
    <message>
        <source>A boot loader stops working. Apply writes only once you accept that and will repair it with the commands shown.</source>
        <translation>Ein Bootloader funktioniert danach nicht mehr. „Anwenden“ schreibt erst, wenn Sie das hinnehmen und ihn mit den gezeigten Befehlen reparieren.</translation>
    </message>
    <message>
        <source>I will repair booting as shown and accept the &amp;change</source>
        <translation>Ich repariere den Start wie gezeigt und nehme die Änderung &amp;hin</translation>
    </message>
    <message>
        <source>Copy a partition first.</source>
        <translation>Zuerst eine Partition kopieren.</translation>
    </message>
    <message>
        <source>The copied partition&apos;s disk and this one are read by different helpers (or one by this window): a paste runs where its target is written and cannot read its source there. Use Copy Disk To… or partwise-cli on one machine.</source>
        <translation>Der Datenträger der kopierten Partition und dieser werden von verschiedenen Helfern gelesen (oder eine von diesem Fenster): Einfügen läuft dort, wo sein Ziel geschrieben wird, und kann seine Quelle dort nicht lesen. Verwenden Sie „Datenträger kopieren nach…“ oder partwise-cli auf einem Rechner.</translation>
    </message>
    <message>
        <source>The copied partition needs %1; this free space holds %2.</source>
        <translation>Die kopierte Partition braucht %1; dieser freie Bereich fasst %2.</translation>
    </message>
    <message>
        <source>Paste a copy of partition %1 of %2 here</source>
        <translation>Eine Kopie von Partition %1 von %2 hier einfügen</translation>
    </message>
    <message>
        <source>Partition %1 of %2 copied: select free space and choose Paste.</source>
        <translation>Partition %1 von %2 kopiert: freien Bereich wählen und „Einfügen“ wählen.</translation>
    </message>
    <message>
        <source>Cannot Paste</source>
        <translation>Einfügen nicht möglich</translation>
    </message>
    <message>
        <source>&amp;Copy Partition</source>
        <translation>Partition &amp;kopieren</translation>
    </message>
    <message>
        <source>Ne&amp;w UUID</source>
        <translation>Neue &amp;UUID</translation>
    </message>
    <message>
        <source>New Partition GU&amp;ID</source>
        <translation>Neue Partitions-&amp;GUID</translation>
    </message>
    <message>
        <source>Partitions of %1 that the queue changes are in use, so nothing was written.</source>
        <translation>Partitionen von %1, die die Warteschlange ändert, sind in Benutzung; daher wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>Partwise can unmount them (or turn their swap off), apply the queue, and offer to mount them back afterwards. It never forces an unmount.</source>
        <translation>Partwise kann sie aushängen (oder ihren Swap deaktivieren), die Warteschlange anwenden und danach anbieten, sie wieder einzuhängen. Ein Aushängen wird nie erzwungen.</translation>
    </message>
    <message>
        <source>&amp;Unmount and Continue</source>
        <translation>&amp;Aushängen und fortfahren</translation>
    </message>
    <message>
        <source>Unmount and Continue</source>
        <translation>Aushängen und fortfahren</translation>
    </message>
    <message>
        <source>Pa&amp;ste Partition…</source>
        <translation>Partition &amp;einfügen…</translation>
    </message>
    <message>
        <source>partition %1</source>
        <translation>Partition %1</translation>
    </message>
    <message>
        <source>partition %1 (%2)</source>
        <translation>Partition %1 (%2)</translation>
    </message>
    <message>
        <source>partition %1 (%2 “%3”)</source>
        <translation>Partition %1 (%2 „%3“)</translation>
    </message>
    <message>
        <source>Formatting %1 as %2 erases every file on it.</source>
        <translation>Das Formatieren von %1 als %2 löscht jede Datei darauf.</translation>
    </message>
    <message>
        <source>Deleting %1 loses every file on it: nothing points at them afterwards.</source>
        <translation>Das Löschen von %1 verliert jede Datei darauf: danach verweist nichts mehr auf sie.</translation>
    </message>
    <message>
        <source>The new partition table loses every partition on the disk, and every file on them.</source>
        <translation>Die neue Partitionstabelle verliert jede Partition des Datenträgers und jede Datei darauf.</translation>
    </message>
    <message>
        <source>Write %1 to %2 now?</source>
        <translation>%1 jetzt auf %2 schreiben?</translation>
    </message>
    <message>
        <source>The partition table is backed up first; the log says where and how to restore it.</source>
        <translation>Die Partitionstabelle wird vorher gesichert; das Protokoll sagt, wo und wie sie sich wiederherstellen lässt.</translation>
    </message>
    <message>
        <source>The partition table is backed up first (the log says where and how to restore it), but not the files: only a backup of your own brings them back.</source>
        <translation>Die Partitionstabelle wird vorher gesichert (das Protokoll sagt, wo und wie sie sich wiederherstellen lässt), die Dateien aber nicht: nur eine eigene Sicherung bringt sie zurück.</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>&amp;Anwenden</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Open a disk or a disk image first.</source>
        <translation>Öffnen Sie zuerst einen Datenträger oder ein Datenträgerabbild.</translation>
    </message>
    <message>
        <source>Select a partition to copy.</source>
        <translation>Wählen Sie eine Partition zum Kopieren.</translation>
    </message>
    <message>
        <source>An extended partition cannot be copied as one: copy the logical partitions inside it, or the whole disk with Drive → Copy Disk To….</source>
        <translation>Eine erweiterte Partition lässt sich nicht als Ganzes kopieren: Kopieren Sie die logischen Partitionen darin oder den ganzen Datenträger mit Laufwerk → Datenträger kopieren nach ….</translation>
    </message>
    <message>
        <source>Partition %1 is not on the disk yet: apply the pending operations, then copy it.</source>
        <translation>Partition %1 ist noch nicht auf dem Datenträger: Wenden Sie die ausstehenden Vorgänge an und kopieren Sie sie dann.</translation>
    </message>
    <message>
        <source>Partition %1 holds no filesystem Partwise recognises, so there is nothing it knows how to copy.</source>
        <translation>Partition %1 enthält kein Dateisystem, das Partwise erkennt, also nichts, das es zu kopieren weiß.</translation>
    </message>
    <message>
        <source>Copy partition %1, to paste it into unallocated space</source>
        <translation>Partition %1 kopieren, um sie in nicht zugeordneten Bereich einzufügen</translation>
    </message>
    <message>
        <source>This disk has no partition table: create one with New Partition Table… first.</source>
        <translation>Dieser Datenträger hat keine Partitionstabelle: Legen Sie zuerst mit „Neue Partitionstabelle …“ eine an.</translation>
    </message>
    <message>
        <source>Select unallocated space to paste into.</source>
        <translation>Wählen Sie nicht zugeordneten Bereich zum Einfügen.</translation>
    </message>
    <message>
        <source>Nothing to redo.</source>
        <translation>Nichts wiederherzustellen.</translation>
    </message>
    <message>
        <source>the preview of the queue failed</source>
        <translation>die Vorschau der Warteschlange ist fehlgeschlagen</translation>
    </message>
    <message>
        <source>Nothing to undo: Undo takes back pending operations only. What Apply wrote to the table, Undo Last Apply puts back where that is honest; the log and the table backup say how to restore the table.</source>
        <translation>Nichts rückgängig zu machen: Rückgängig nimmt nur ausstehende Vorgänge zurück. Was Anwenden in die Tabelle schrieb, stellt „Letztes Anwenden rückgängig“ wieder her, wo das ehrlich geht; das Protokoll und die Tabellensicherung sagen, wie man die Tabelle wiederherstellt.</translation>
    </message>
    <message>
        <source>With the partitions, Partwise runs:</source>
        <translation>Mit den Partitionen führt Partwise aus:</translation>
    </message>
</context>
<context>
    <name>EncryptionActions</name>
    <message>
        <source>Open Encr&amp;yption…</source>
        <translation>Verschlüsselung ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Unlock the selected LUKS partition with its passphrase</source>
        <translation>Die ausgewählte LUKS-Partition mit ihrer Passphrase entsperren</translation>
    </message>
    <message>
        <source>Close Encry&amp;ption</source>
        <translation>Verschlüsselung schl&amp;ießen</translation>
    </message>
    <message>
        <source>Lock the selected LUKS partition again</source>
        <translation>Die ausgewählte LUKS-Partition wieder sperren</translation>
    </message>
    <message>
        <source>Select a LUKS partition.</source>
        <translation>Wählen Sie eine LUKS-Partition.</translation>
    </message>
    <message>
        <source>Goes through the administrator&apos;s helper (libcryptsetup, as root).</source>
        <translation>Läuft über den Administrator-Helfer (libcryptsetup, als root).</translation>
    </message>
    <message>
        <source>Runs in this window, which runs as root (libcryptsetup).</source>
        <translation>Läuft in diesem Fenster, das als root läuft (libcryptsetup).</translation>
    </message>
    <message>
        <source>Open Encryption</source>
        <translation>Verschlüsselung öffnen</translation>
    </message>
    <message>
        <source>Passphrase for the LUKS partition:</source>
        <translation>Passphrase der LUKS-Partition:</translation>
    </message>
    <message>
        <source>Partwise</source>
        <translation>Partwise</translation>
    </message>
    <message>
        <source>Locked %1.</source>
        <translation>%1 gesperrt.</translation>
    </message>
    <message>
        <source>Unlocked %1 as %2; no filesystem found inside.</source>
        <translation>%1 als %2 entsperrt; darin wurde kein Dateisystem gefunden.</translation>
    </message>
    <message>
        <source>Unlocked %1 as %2: %3 inside (label &quot;%4&quot;).</source>
        <translation>%1 als %2 entsperrt: darin %3 (Bezeichnung „%4“).</translation>
    </message>
</context>
<context>
    <name>FilesystemSupportDialog</name>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Repair</source>
        <translation>Reparieren</translation>
    </message>
    <message>
        <source>Grow</source>
        <translation>Vergrößern</translation>
    </message>
    <message>
        <source>Shrink</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <source>Move</source>
        <translation>Verschieben</translation>
    </message>
    <message>
        <source>Used blocks only</source>
        <translation>Nur belegte Blöcke</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>install %1</source>
        <extracomment>A cell of the support table: what to install.</extracomment>
        <translation>%1 installieren</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>Filesystem Support</source>
        <translation>Dateisystem-Unterstützung</translation>
    </message>
    <message>
        <source>What Partwise can do with each filesystem with the tools installed on this computer, and in this session: &quot;disks only&quot; cannot be done inside a disk image file without administrator rights. Hover over a cell for the programs it runs and why.</source>
        <translation>Was Partwise mit den auf diesem Rechner installierten Werkzeugen mit jedem Dateisystem tun kann, und zwar in dieser Sitzung: „nur Datenträger“ ist in einer Abbilddatei ohne Administratorrechte nicht möglich. Zeigen Sie auf eine Zelle, um die verwendeten Programme und den Grund zu sehen.</translation>
    </message>
    <message>
        <source>disks only</source>
        <extracomment>A cell of the support table: on disks, but not inside image files in this session.</extracomment>
        <translation>nur Datenträger</translation>
    </message>
    <message>
        <source>&amp;Rescan</source>
        <translation>&amp;Neu prüfen</translation>
    </message>
    <message>
        <source>New UUID</source>
        <translation>Neue UUID</translation>
    </message>
</context>
<context>
    <name>FlagsDialog</name>
    <message>
        <source>Flags of %1</source>
        <translation>Markierungen von %1</translation>
    </message>
    <message>
        <source>MBR</source>
        <translation>MBR</translation>
    </message>
    <message>
        <source>&amp;Add to Queue</source>
        <translation>Zur &amp;Warteschlange hinzufügen</translation>
    </message>
    <message>
        <source>Flags of %1 on a %2 table. A flag this table does not take is refused in the preview, before anything is written.</source>
        <translation>Markierungen von %1 in einer %2-Tabelle. Eine Markierung, die diese Tabelle nicht kennt, wird in der Vorschau abgelehnt, bevor etwas geschrieben wird.</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>FormatDialog</name>
    <message>
        <source>Format %1</source>
        <translation>%1 formatieren</translation>
    </message>
    <message>
        <source>Creating a filesystem erases what %1 holds now (%2).</source>
        <translation>Ein neues Dateisystem löscht, was %1 jetzt enthält (%2).</translation>
    </message>
    <message>
        <source>no filesystem found</source>
        <translation>kein Dateisystem gefunden</translation>
    </message>
    <message>
        <source>&amp;Filesystem:</source>
        <translation>&amp;Dateisystem:</translation>
    </message>
    <message>
        <source>&amp;Label:</source>
        <translation>&amp;Bezeichnung:</translation>
    </message>
    <message>
        <source>&amp;Add to Queue</source>
        <translation>Zur &amp;Warteschlange hinzufügen</translation>
    </message>
</context>
<context>
    <name>HelperApplyDialog</name>
    <message>
        <source>Apply Pending Operations on %1</source>
        <translation>Ausstehende Vorgänge auf %1 anwenden</translation>
    </message>
    <message>
        <source>The connection to the machine is closed; nothing was written.</source>
        <translation>Die Verbindung zum Rechner ist geschlossen; es wurde nichts geschrieben.</translation>
    </message>
    <message>
        <source>%1 The helper there stops at the end of an operation; if one was under way, its journal lets partwise-cli resume %2 finish it on that machine.</source>
        <translation>%1 Der Helfer dort hält am Ende eines Vorgangs an; war einer im Gange, kann partwise-cli resume %2 ihn auf jenem Rechner mit seinem Journal abschließen.</translation>
    </message>
</context>
<context>
    <name>HelperConnection</name>
    <message>
        <source>%1 could not be started: %2.</source>
        <translation>%1 konnte nicht gestartet werden: %2.</translation>
    </message>
    <message>
        <source>The helper is not running.</source>
        <translation>Der Helfer läuft nicht.</translation>
    </message>
    <message>
        <source>The helper sent a line of more than %1 MiB; it is not speaking Partwise&apos;s protocol.</source>
        <translation>Der Helfer hat eine Zeile von mehr als %1 MiB gesendet; er spricht nicht das Protokoll von Partwise.</translation>
    </message>
    <message>
        <source>The helper answered with something that is not Partwise&apos;s protocol: “%1”.</source>
        <translation>Der Helfer hat mit etwas geantwortet, das nicht das Protokoll von Partwise ist: „%1“.</translation>
    </message>
    <message>
        <source>The helper refused the request.</source>
        <translation>Der Helfer hat die Anfrage abgelehnt.</translation>
    </message>
    <message>
        <source>The helper</source>
        <translation>Der Helfer</translation>
    </message>
    <message>
        <source>The helper on %1</source>
        <translation>Der Helfer auf %1</translation>
    </message>
    <message>
        <source>%1 stopped unexpectedly (it crashed or was killed).</source>
        <translation>%1 wurde unerwartet beendet (abgestürzt oder abgebrochen).</translation>
    </message>
    <message>
        <source>%1 ended (exit status %2).</source>
        <translation>%1 wurde beendet (Exit-Status %2).</translation>
    </message>
    <message>
        <source>Its last words: “%1”</source>
        <translation>Seine letzte Ausgabe: „%1“</translation>
    </message>
    <message>
        <source>%1 speaks protocol %2; this window speaks protocol %3. Install the same version of Partwise on both sides.</source>
        <translation>%1 spricht Protokoll %2, dieses Fenster Protokoll %3. Installieren Sie auf beiden Seiten dieselbe Version von Partwise.</translation>
    </message>
    <message>
        <source>It comes with the Debian package %1.</source>
        <translation>Es ist im Debian-Paket %1 enthalten.</translation>
    </message>
    <message>
        <source>%1 as %2</source>
        <translation>%1 als %2</translation>
    </message>
    <message>
        <source>(pkexec said: “%1”)</source>
        <translation>(pkexec sagte: „%1“)</translation>
    </message>
</context>
<context>
    <name>HelperCopyBackend</name>
    <message>
        <source>the helper is not running</source>
        <translation>der Helfer läuft nicht</translation>
    </message>
    <message>
        <source>the connection was closed</source>
        <translation>die Verbindung wurde geschlossen</translation>
    </message>
    <message>
        <source>The helper sent a plan this window cannot use: %1</source>
        <translation>Der Helfer hat einen Plan geschickt, den dieses Fenster nicht verwenden kann: %1</translation>
    </message>
    <message>
        <source>The helper sent a result this window cannot use: %1</source>
        <translation>Der Helfer hat ein Ergebnis geschickt, das dieses Fenster nicht verwenden kann: %1</translation>
    </message>
    <message>
        <source>The connection to the helper was lost (%1). A copy under way stops where its journal on %2 lets it be finished: run “partwise-cli resume %3” there.</source>
        <translation>Die Verbindung zum Helfer ist abgerissen (%1). Eine laufende Kopie hält dort an, wo ihr Journal auf %2 erlaubt, sie abzuschließen: Führen Sie dort „partwise-cli resume %3“ aus.</translation>
    </message>
</context>
<context>
    <name>HelperProbeRunner</name>
    <message>
        <source>The helper that reads this disk is not running.</source>
        <translation>Der Helfer, der diesen Datenträger liest, läuft nicht.</translation>
    </message>
    <message>
        <source>The helper sent a probe result this window cannot use: %1</source>
        <translation>Der Helfer hat ein Messergebnis geschickt, das dieses Fenster nicht verwenden kann: %1</translation>
    </message>
    <message>
        <source>The connection to the helper was closed during the probe.</source>
        <translation>Die Verbindung zum Helfer wurde während der Messung geschlossen.</translation>
    </message>
</context>
<context>
    <name>HelperRealignBackend</name>
    <message>
        <source>the helper is not running</source>
        <translation>der Helfer läuft nicht</translation>
    </message>
    <message>
        <source>The helper sent a plan this window cannot use: %1</source>
        <translation>Der Helfer hat einen Plan geschickt, den dieses Fenster nicht verwenden kann: %1</translation>
    </message>
    <message>
        <source>The helper sent a result this window cannot use: %1</source>
        <translation>Der Helfer hat ein Ergebnis geschickt, das dieses Fenster nicht verwenden kann: %1</translation>
    </message>
    <message>
        <source>The connection to the helper was lost (%1). A move under way stops where its journal on %2 lets it be finished: connect again and the disk offers to finish it (Resume), or run “partwise-cli resume %3” there.</source>
        <translation>Die Verbindung zum Helfer ist abgebrochen (%1). Eine laufende Verschiebung hält dort an, wo ihr Journal auf %2 sie abschließen lässt: Verbinden Sie sich erneut, dann bietet der Datenträger das Abschließen an (Fortsetzen), oder führen Sie dort „partwise-cli resume %3“ aus.</translation>
    </message>
    <message>
        <source>the connection was closed</source>
        <translation>die Verbindung wurde geschlossen</translation>
    </message>
    <message>
        <source>The helper on %1 is older than this window: install the same version of Partwise there.</source>
        <translation>Der Helfer auf %1 ist älter als dieses Fenster: Installieren Sie dort dieselbe Version von Partwise.</translation>
    </message>
    <message>
        <source>Cancelled before the work started.</source>
        <translation>Abgebrochen, bevor die Arbeit begann.</translation>
    </message>
</context>
<context>
    <name>HumanSize</name>
    <message>
        <source>en_US</source>
        <extracomment>Locale name used for numbers in sizes and byte counts (decimal point and digit grouping). Put the locale of this translation here, for example de_DE.</extracomment>
        <translation>de_DE</translation>
    </message>
    <message>
        <source>%1 B</source>
        <extracomment>A size in bytes, as in &quot;512 B&quot;.</extracomment>
        <translation>%1 B</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 TiB</source>
        <translation>%1 TiB</translation>
    </message>
    <message>
        <source>%1 PiB</source>
        <translation>%1 PiB</translation>
    </message>
</context>
<context>
    <name>InfoPanel</name>
    <message>
        <source>No partition table: the whole disk holds %1</source>
        <translation>Keine Partitionstabelle: Der ganze Datenträger enthält %1</translation>
    </message>
    <message>
        <source>Sector Info</source>
        <translation>Sektorinfo</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>First sector</source>
        <translation>Erster Sektor</translation>
    </message>
    <message>
        <source>Last sector</source>
        <translation>Letzter Sektor</translation>
    </message>
    <message>
        <source>Total sectors</source>
        <translation>Sektoren insgesamt</translation>
    </message>
    <message>
        <source>First byte</source>
        <translation>Erstes Byte</translation>
    </message>
    <message>
        <source>Last byte</source>
        <translation>Letztes Byte</translation>
    </message>
    <message>
        <source>Size in bytes</source>
        <translation>Größe in Bytes</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>Ausrichtung</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Bytes past the previous 4 KiB boundary, after the alignment offset</source>
        <translation>Bytes hinter der vorigen 4-KiB-Grenze, nach Abzug des Ausrichtungsversatzes</translation>
    </message>
    <message>
        <source>Grain</source>
        <translation>Raster</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Datenträger</translation>
    </message>
    <message>
        <source>Logical sector</source>
        <translation>Logischer Sektor</translation>
    </message>
    <message>
        <source>Physical sector (assumed)</source>
        <translation>Physischer Sektor (angenommen)</translation>
    </message>
    <message>
        <source>What alignment is checked against</source>
        <translation>Woran die Ausrichtung geprüft wird</translation>
    </message>
    <message>
        <source>Minimum I/O size</source>
        <translation>Minimale E/A-Größe</translation>
    </message>
    <message>
        <source>Optimal I/O size</source>
        <translation>Optimale E/A-Größe</translation>
    </message>
    <message>
        <source>Alignment offset</source>
        <translation>Ausrichtungsversatz</translation>
    </message>
    <message>
        <source>Reported by</source>
        <translation>Gemeldet von</translation>
    </message>
    <message>
        <source>Partition table</source>
        <translation>Partitionstabelle</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Warnungen</translation>
    </message>
    <message>
        <source>What reading the disk found wrong or worth knowing, such as a partition the kernel places elsewhere than the table does</source>
        <translation>Was beim Lesen des Datenträgers auffiel oder wissenswert ist, etwa eine Partition, die der Kernel an anderer Stelle sieht als die Tabelle</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>Inhalt</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>GPT name</source>
        <translation>GPT-Name</translation>
    </message>
    <message>
        <source>UUID</source>
        <translation>UUID</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Markierungen</translation>
    </message>
    <message>
        <source>&amp;Copy All</source>
        <translation>Alles &amp;kopieren</translation>
    </message>
    <message>
        <source>Nothing selected</source>
        <translation>Nichts ausgewählt</translation>
    </message>
    <message>
        <source>Select a partition or unallocated space on the map or in the list to see where it starts and why that matters.</source>
        <translation>Wählen Sie eine Partition oder einen nicht zugewiesenen Bereich in der Karte oder der Liste, um zu sehen, wo sie beginnt und warum das wichtig ist.</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 Bytes</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>nicht gemeldet</translation>
    </message>
    <message>
        <source>%1 bytes (used as the grain)</source>
        <translation>%1 Bytes (als Raster verwendet)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 = %2 sectors</source>
        <translation>%1 = %2 Sektoren</translation>
    </message>
    <message>
        <source>The disk reports %1-byte physical sectors. Many Advanced Format drives report 512 although they write 4096-byte sectors inside, so Partwise checks starts against %2 bytes (Preferences → trust the drive to change this).</source>
        <translation>Der Datenträger meldet physische Sektoren zu %1 Byte. Viele Advanced-Format-Laufwerke melden 512, obwohl sie intern Sektoren zu 4096 Byte schreiben; daher prüft Partwise die Anfänge gegen %2 Bytes (ändern lässt sich das unter Einstellungen → dem Laufwerk vertrauen).</translation>
    </message>
    <message>
        <source>The disk reports %1-byte physical sectors and starts are checked against that size.</source>
        <translation>Der Datenträger meldet physische Sektoren zu %1 Byte, und die Anfänge werden gegen diese Größe geprüft.</translation>
    </message>
    <message>
        <source>unallocated: not judged</source>
        <translation>nicht zugewiesen: nicht bewertet</translation>
    </message>
    <message>
        <source>It %1.</source>
        <translation>Sie %1.</translation>
    </message>
    <message>
        <source>%1 MiB · %2 GiB</source>
        <translation>%1 MiB · %2 GiB</translation>
    </message>
    <message>
        <source>Checked against</source>
        <translation>Geprüft gegen</translation>
    </message>
    <message>
        <source>The physical sector size and offset every verdict and new partition uses</source>
        <translation>Die physische Sektorgröße und der Versatz, die jede Bewertung und jede neue Partition verwendet</translation>
    </message>
    <message>
        <source>Drive</source>
        <translation>Laufwerk</translation>
    </message>
    <message>
        <source>Own report</source>
        <translation>Eigene Angabe</translation>
    </message>
    <message>
        <source>What the drive answers to ATA IDENTIFY, SCSI READ CAPACITY or NVMe Identify, asked through smartctl</source>
        <translation>Was das Laufwerk auf ATA IDENTIFY, SCSI READ CAPACITY oder NVMe Identify antwortet, über smartctl gefragt</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Serial number</source>
        <translation>Seriennummer</translation>
    </message>
    <message>
        <source>Firmware</source>
        <translation>Firmware</translation>
    </message>
    <message>
        <source>World Wide Name</source>
        <translation>World Wide Name</translation>
    </message>
    <message>
        <source>Rotation</source>
        <translation>Drehzahl</translation>
    </message>
    <message>
        <source>SMART health</source>
        <translation>SMART-Zustand</translation>
    </message>
    <message>
        <source>The drive&apos;s own overall-health self-assessment</source>
        <translation>Die eigene Gesamtbewertung des Laufwerks über seinen Zustand</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>Assumed</source>
        <translation>Angenommen</translation>
    </message>
    <message>
        <source>What the kernel passes on (or what the image file implies)</source>
        <translation>Was der Kernel weitergibt (oder was aus der Abbilddatei folgt)</translation>
    </message>
    <message>
        <source>What the drive itself answers, asked through smartctl</source>
        <translation>Was das Laufwerk selbst antwortet, über smartctl gefragt</translation>
    </message>
    <message>
        <source>What a timing probe measured on this drive (Drive → Measure Physical Sector…)</source>
        <translation>Was eine Zeitmessung auf diesem Laufwerk ergab (Laufwerk → Physischen Sektor messen …)</translation>
    </message>
    <message>
        <source>Physical sector:</source>
        <translation>Physischer Sektor:</translation>
    </message>
    <message>
        <source>Offset:</source>
        <translation>Versatz:</translation>
    </message>
    <message>
        <source>Physical sector (kernel)</source>
        <translation>Physischer Sektor (Kernel)</translation>
    </message>
    <message>
        <source>Physical sector (drive)</source>
        <translation>Physischer Sektor (Laufwerk)</translation>
    </message>
    <message>
        <source>Physical sector (measured)</source>
        <translation>Physischer Sektor (gemessen)</translation>
    </message>
    <message>
        <source>Alignment offset (kernel)</source>
        <translation>Ausrichtungsversatz (Kernel)</translation>
    </message>
    <message>
        <source>Alignment offset (drive)</source>
        <translation>Ausrichtungsversatz (Laufwerk)</translation>
    </message>
    <message>
        <source>Alignment offset (measured)</source>
        <translation>Ausrichtungsversatz (gemessen)</translation>
    </message>
    <message>
        <source>A timing probe measured %1-byte physical sectors starting at byte %2 on this drive, so Partwise checks starts against that rather than the %3 bytes the disk reports.</source>
        <translation>Eine Zeitmessung ergab auf diesem Laufwerk physische Sektoren von %1 Bytes ab Byte %2, daher prüft Partwise Partitionsanfänge dagegen statt gegen die %3 Bytes, die die Platte meldet.</translation>
    </message>
    <message>
        <source>The kernel reports %1-byte physical sectors, but the drive itself answers %2, and starts are checked against %2 bytes.</source>
        <translation>Der Kernel meldet physische Sektoren von %1 Bytes, das Laufwerk selbst antwortet jedoch %2, und Partitionsanfänge werden gegen %2 Bytes geprüft.</translation>
    </message>
    <message>
        <source>%1 bytes, as reported</source>
        <translation>%1 Bytes, wie gemeldet</translation>
    </message>
    <message>
        <source>%1 bytes, assumed</source>
        <translation>%1 Bytes, angenommen</translation>
    </message>
    <message>
        <source>%1 bytes, as measured</source>
        <translation>%1 Bytes, wie gemessen</translation>
    </message>
    <message>
        <source> (offset %1 bytes)</source>
        <translation> (Versatz %1 Bytes)</translation>
    </message>
    <message>
        <source>none: a disk image file has no drive behind it to ask</source>
        <translation>keine: hinter einer Abbilddatei steht kein Laufwerk, das man fragen könnte</translation>
    </message>
    <message>
        <source>not asked</source>
        <translation>nicht gefragt</translation>
    </message>
    <message>
        <source>%1, through smartctl %2</source>
        <translation>%1, über smartctl %2</translation>
    </message>
    <message>
        <source>%1, through smartctl %2 (-d %3)</source>
        <translation>%1, über smartctl %2 (-d %3)</translation>
    </message>
    <message>
        <source>none: solid state</source>
        <translation>keine: Halbleiterlaufwerk</translation>
    </message>
    <message>
        <source>%1 rpm</source>
        <translation>%1 U/min</translation>
    </message>
    <message>
        <source>Layers inside</source>
        <translation>Schichten darin</translation>
    </message>
    <message>
        <source>Where the data of a LUKS volume or an LVM physical volume starts: it must be aligned too, or every write of the filesystem on top straddles sectors</source>
        <translation>Wo die Daten eines LUKS-Datenträgers oder eines physischen LVM-Volumes beginnen: Auch sie müssen ausgerichtet sein, sonst überspannt jeder Schreibvorgang des Dateisystems darüber zwei Sektoren</translation>
    </message>
    <message>
        <source>Its %1 data starts %2 bytes past a physical sector, so it is misaligned all the same; moving the partition cannot fix that: %3.</source>
        <translation>Die %1-Daten beginnen %2 Byte nach einem physischen Sektor und sind damit trotzdem falsch ausgerichtet; Verschieben der Partition behebt das nicht: %3.</translation>
    </message>
    <message>
        <source>%1: unreadable (%2)</source>
        <translation>%1: nicht lesbar (%2)</translation>
    </message>
    <message>
        <source>%1: data at byte %2 of the partition, %3 of the disk: %4</source>
        <extracomment>%1 kind of layer, %2 and %3 byte offsets, %4 a status such as &quot;Aligned&quot;.</extracomment>
        <translation>%1: Daten ab Byte %2 der Partition, %3 des Datenträgers: %4</translation>
    </message>
    <message>
        <source>good: SMART passed, no reallocated, pending or uncorrectable sectors</source>
        <translation>gut: SMART bestanden, keine umgelagerten, schwebenden oder unkorrigierbaren Sektoren</translation>
    </message>
    <message>
        <source>warning: %1. Back up this drive soon; copy your data off before moving anything on it.</source>
        <extracomment>%1 lists what SMART found, e.g. &quot;8 reallocated sectors&quot;.</extracomment>
        <translation>Warnung: %1. Sichern Sie dieses Laufwerk bald; sichern Sie Ihre Daten, bevor Sie darauf etwas verschieben.</translation>
    </message>
    <message>
        <source>FAILING: %1. Copy your data off now; moving data on a failing drive risks losing it.</source>
        <translation>FÄLLT AUS: %1. Sichern Sie Ihre Daten jetzt; Daten auf einem ausfallenden Laufwerk zu verschieben, kann sie kosten.</translation>
    </message>
    <message>
        <source>Boot</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Boot loader</source>
        <translation>Bootloader</translation>
    </message>
    <message>
        <source>What boots from the selected partition, read from its first sector and the partition table</source>
        <translation>Was von der gewählten Partition startet, gelesen aus ihrem ersten Sektor und der Partitionstabelle</translation>
    </message>
    <message>
        <source>MBR boot code</source>
        <translation>MBR-Startcode</translation>
    </message>
    <message>
        <source>The code in the disk&apos;s first sector, which a BIOS runs, and where it loads the rest from</source>
        <translation>Der Code im ersten Sektor des Datenträgers, den ein BIOS ausführt, und woher er den Rest lädt</translation>
    </message>
    <message>
        <source>BIOS boot partition</source>
        <translation>BIOS-Boot-Partition</translation>
    </message>
    <message>
        <source>EFI system partitions</source>
        <translation>EFI-Systempartitionen</translation>
    </message>
    <message>
        <source>Firmware entries</source>
        <translation>Firmware-Einträge</translation>
    </message>
    <message>
        <source>This machine&apos;s UEFI boot entries (efibootmgr) that name a partition of this disk</source>
        <translation>Die UEFI-Starteinträge dieses Rechners (efibootmgr), die eine Partition dieses Datenträgers nennen</translation>
    </message>
    <message>
        <source>Not read</source>
        <translation>Nicht gelesen</translation>
    </message>
    <message>
        <source>In use</source>
        <translation>In Benutzung</translation>
    </message>
    <message>
        <source>Where the partition is mounted, or that it is an active swap, when the disk was read; Partition → Unmount or Swap Off frees it</source>
        <translation>Wo die Partition eingehängt ist oder dass sie aktiver Swap ist, als das Laufwerk gelesen wurde; Partition → Aushängen oder Swap deaktivieren gibt sie frei</translation>
    </message>
    <message>
        <source>not mounted</source>
        <translation>nicht eingehängt</translation>
    </message>
    <message>
        <source>Offset from 4 KiB boundary</source>
        <translation>Abstand zur 4-KiB-Grenze</translation>
    </message>
    <message>
        <source>Offset from physical sector</source>
        <translation>Abstand zum physischen Sektor</translation>
    </message>
    <message>
        <source>Bytes past the start of the physical sector it begins in: 0 when aligned</source>
        <translation>Bytes nach dem Anfang des physischen Sektors, in dem sie beginnt: 0, wenn ausgerichtet</translation>
    </message>
    <message>
        <source>Offset from grain boundary</source>
        <translation>Abstand zur Rastergrenze</translation>
    </message>
    <message>
        <source>Bytes past the previous grain boundary (1 MiB unless chosen otherwise)</source>
        <translation>Bytes nach der vorigen Rastergrenze (1 MiB, sofern nicht anders gewählt)</translation>
    </message>
    <message>
        <source>  volume group %1 (%2), extents of %3: %4</source>
        <extracomment>%1 the group&apos;s name, %2 active or not active, %3 a size such as &quot;4 MiB&quot;.</extracomment>
        <translation>  Volumegruppe %1 (%2), Extents zu %3: %4</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>not active</source>
        <translation>nicht aktiv</translation>
    </message>
    <message>
        <source>a whole number of grains, so volumes stay on the grain</source>
        <translation>ein ganzes Vielfaches des Rasters, die Volumes bleiben also auf dem Raster</translation>
    </message>
    <message>
        <source>not a multiple of the %1 grain, so some volumes start off it</source>
        <translation>kein Vielfaches des Rasters von %1, manche Volumes beginnen also daneben</translation>
    </message>
    <message>
        <source>  volume %1, %2 from byte %3 of the disk%5: %4</source>
        <extracomment>%1 the volume&apos;s name, %2 a size, %3 a byte offset, %4 a status such as &quot;Aligned&quot;.</extracomment>
        <translation>  Volume %1, %2 ab Byte %3 des Datenträgers%5: %4</translation>
    </message>
    <message>
        <source> (active)</source>
        <translation> (aktiv)</translation>
    </message>
</context>
<context>
    <name>LastApplyUndo</name>
    <message>
        <source>The last Apply was written by the administrator&apos;s helper, which keeps its table backup in %1. To put it back: `sudo partwise-cli restore %1 %2`.</source>
        <translation>Das letzte Anwenden hat der Helfer des Administrators geschrieben, der seine Tabellensicherung in %1 aufbewahrt. Zum Wiederherstellen: `sudo partwise-cli restore %1 %2`.</translation>
    </message>
    <message>
        <source>Putting the table back…</source>
        <translation>Die Tabelle wird wiederhergestellt…</translation>
    </message>
    <message>
        <source>Nothing to undo: no Apply has written this disk since Partwise started.</source>
        <translation>Nichts rückgängig zu machen: Seit dem Start von Partwise hat kein Anwenden diesen Datenträger beschrieben.</translation>
    </message>
    <message>
        <source>Apply or clear the pending operations first: undoing the last Apply changes the disk they were planned on.</source>
        <translation>Zuerst die ausstehenden Vorgänge anwenden oder verwerfen: Das Rückgängigmachen des letzten Anwendens ändert den Datenträger, für den sie geplant wurden.</translation>
    </message>
    <message>
        <source>Put back the partition table as it was before the last Apply, from the backup it took</source>
        <translation>Die Partitionstabelle aus der dabei angelegten Sicherung so wiederherstellen, wie sie vor dem letzten Anwenden war</translation>
    </message>
    <message>
        <source>Undo Last Apply</source>
        <translation>Letztes Anwenden rückgängig</translation>
    </message>
    <message>
        <source>Put back the partition table of %1 as it was before the last Apply?</source>
        <translation>Die Partitionstabelle von %1 so wiederherstellen, wie sie vor dem letzten Anwenden war?</translation>
    </message>
    <message>
        <source>The partitions are the backup&apos;s already; the table&apos;s bytes go back.</source>
        <translation>Die Partitionen sind bereits die der Sicherung; die Bytes der Tabelle werden zurückgeschrieben.</translation>
    </message>
    <message>
        <source>No data was moved since the backup, so its table points at the data. The backup stays in %1.</source>
        <translation>Seit der Sicherung wurden keine Daten verschoben, ihre Tabelle zeigt also auf die Daten. Die Sicherung bleibt in %1.</translation>
    </message>
    <message>
        <source>&amp;Undo Apply</source>
        <translation>Anwenden &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>The last Apply was undone already.</source>
        <translation>Das letzte Anwenden wurde bereits rückgängig gemacht.</translation>
    </message>
    <message>
        <source>The partition table of %1 is as it was before the last Apply.</source>
        <translation>Die Partitionstabelle von %1 ist wieder so wie vor dem letzten Anwenden.</translation>
    </message>
    <message>
        <source>Undo Last Appl&amp;y…</source>
        <translation>Let&amp;ztes Anwenden rückgängig…</translation>
    </message>
</context>
<context>
    <name>LogicalVolumeStrip</name>
    <message>
        <source>%1: %2 from byte %3 (%4)</source>
        <translation>%1: %2 ab Byte %3 (%4)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>No partition table on %1: the whole disk holds %2</source>
        <translation>Keine Partitionstabelle auf %1: Der ganze Datenträger enthält %2</translation>
    </message>
    <message>
        <source>%1 has no partition table.</source>
        <translation>%1 hat keine Partitionstabelle.</translation>
    </message>
    <message>
        <source>Partwise</source>
        <translation>Partwise</translation>
    </message>
    <message>
        <source>No disks found. Open a disk image (File → Open Disk Image…) or create a practice disk to explore.</source>
        <translation>Keine Datenträger gefunden. Öffnen Sie ein Datenträgerabbild (Datei → Datenträgerabbild öffnen…) oder erstellen Sie zum Ausprobieren einen Übungsdatenträger.</translation>
    </message>
    <message>
        <source>Looking for disks…</source>
        <translation>Datenträger werden gesucht …</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Datenträger</translation>
    </message>
    <message>
        <source>&amp;Disk:</source>
        <translation>Datenträ&amp;ger:</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Partitionen</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Disk Image…</source>
        <translation>Datenträgerabbild ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;New Practice Disk…</source>
        <translation>&amp;Neuer Übungsdatenträger…</translation>
    </message>
    <message>
        <source>&amp;Export Map…</source>
        <translation>Karte &amp;exportieren…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>A&amp;nsicht</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Partwise</source>
        <translation>Ü&amp;ber Partwise</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>Liste &amp;leeren</translation>
    </message>
    <message>
        <source>Creating the demo disk…</source>
        <translation>Demo-Datenträger wird erstellt …</translation>
    </message>
    <message>
        <source>Creating %1…</source>
        <translation>%1 wird erstellt …</translation>
    </message>
    <message>
        <source>Practice Disk</source>
        <translation>Übungsdatenträger</translation>
    </message>
    <message>
        <source>%1 — Partwise</source>
        <translation>%1 — Partwise</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>%1 wird gelesen …</translation>
    </message>
    <message>
        <source>No disk open</source>
        <translation>Kein Datenträger geöffnet</translation>
    </message>
    <message>
        <source>No partition table on %1</source>
        <translation>Keine Partitionstabelle auf %1</translation>
    </message>
    <message>
        <source>%1 of 1 partition misaligned on %2</source>
        <translation>%1 von 1 Partition auf %2 falsch ausgerichtet</translation>
    </message>
    <message>
        <source>%1 of %2 partitions misaligned on %3</source>
        <translation>%1 von %2 Partitionen auf %3 falsch ausgerichtet</translation>
    </message>
    <message>
        <source>; %1 on a physical sector but not on the %2 grain</source>
        <translation>; %1 auf einem physischen Sektor, aber nicht auf dem Raster von %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Open Disk Image</source>
        <translation>Datenträgerabbild öffnen</translation>
    </message>
    <message>
        <source>Disk images (*.img *.raw *.bin *.iso);;All files (*)</source>
        <translation>Datenträgerabbilder (*.img *.raw *.bin *.iso);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export Map</source>
        <translation>Karte exportieren</translation>
    </message>
    <message>
        <source>Map saved to %1</source>
        <translation>Karte in %1 gespeichert</translation>
    </message>
    <message>
        <source>About Partwise</source>
        <translation>Über Partwise</translation>
    </message>
    <message>
        <source>D&amp;rive</source>
        <translation>&amp;Laufwerk</translation>
    </message>
    <message>
        <source>Measure Physical &amp;Sector…</source>
        <translation>Physischen &amp;Sektor messen…</translation>
    </message>
    <message>
        <source>Time writes to find the drive&apos;s real physical sector size</source>
        <translation>Schreibzeiten messen, um die wahre physische Sektorgröße des Laufwerks zu finden</translation>
    </message>
    <message>
        <source>%1 is a disk image: an image file has no physical sector of its own to measure. Measure the drive that holds it.</source>
        <translation>%1 ist ein Abbild: Eine Abbilddatei hat keinen eigenen physischen Sektor, den man messen könnte. Messen Sie das Laufwerk, auf dem sie liegt.</translation>
    </message>
    <message>
        <source>&amp;Filesystem Support</source>
        <translation>&amp;Dateisystem-Unterstützung</translation>
    </message>
    <message>
        <source>Measure Physical Sector</source>
        <translation>Physischen Sektor messen</translation>
    </message>
    <message>
        <source>%1 is read through a helper that is not running; connect to %2 again to measure it.</source>
        <translation>%1 wird über einen Helfer gelesen, der nicht läuft; verbinden Sie sich erneut mit %2, um ihn zu messen.</translation>
    </message>
    <message>
        <source>%1 (read-only) — Partwise</source>
        <translation>%1 (schreibgeschützt) — Partwise</translation>
    </message>
    <message>
        <source> — read-only: Partwise writes nothing to it</source>
        <translation> — schreibgeschützt: Partwise schreibt nichts darauf</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Partwise %1&lt;/h3&gt;&lt;p&gt;A partition editor that gets alignment right: misaligned partitions are outlined in red, partitions on a physical sector but off the grain in amber.&lt;/p&gt;&lt;p&gt;Free software under the GNU General Public License, version 3 or later.&lt;/p&gt;&lt;p&gt;Website: &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;&lt;p&gt;The manual is the README on the website, and &lt;tt&gt;man partwise&lt;/tt&gt; and &lt;tt&gt;man partwise-cli&lt;/tt&gt; here.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Partwise %1&lt;/h3&gt;&lt;p&gt;Ein Partitionseditor, der die Ausrichtung richtig macht: falsch ausgerichtete Partitionen sind rot umrandet, Partitionen auf einem physischen Sektor, aber neben dem Raster, gelb.&lt;/p&gt;&lt;p&gt;Freie Software unter der GNU General Public License, Version 3 oder später.&lt;/p&gt;&lt;p&gt;Website: &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;&lt;p&gt;Das Handbuch ist die README auf der Website, hier außerdem &lt;tt&gt;man partwise&lt;/tt&gt; und &lt;tt&gt;man partwise-cli&lt;/tt&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 was removed</source>
        <translation>%1 wurde entfernt</translation>
    </message>
    <message numerus="yes">
        <source>%n pending operation(s) dropped: %1. They were planned for that disk as it was, and are never applied to another.</source>
        <translation>
            <numerusform>%n anstehender Vorgang verworfen: %1. Er war für diesen Datenträger geplant, wie er war, und wird nie auf einen anderen angewendet.</numerusform>
            <numerusform>%n anstehende Vorgänge verworfen: %1. Sie waren für diesen Datenträger geplant, wie er war, und werden nie auf einen anderen angewendet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Pending Operations Dropped</source>
        <translation>Anstehende Vorgänge verworfen</translation>
    </message>
</context>
<context>
    <name>MountActions</name>
    <message>
        <source>&amp;Unmount</source>
        <translation>&amp;Aushängen</translation>
    </message>
    <message>
        <source>Unmount the selected partition wherever it is mounted</source>
        <translation>Die gewählte Partition überall aushängen, wo sie eingehängt ist</translation>
    </message>
    <message>
        <source>&amp;Mount On…</source>
        <translation>&amp;Einhängen in…</translation>
    </message>
    <message>
        <source>Swap O&amp;ff</source>
        <translation>Swap &amp;deaktivieren</translation>
    </message>
    <message>
        <source>Swap &amp;On</source>
        <translation>Swap a&amp;ktivieren</translation>
    </message>
    <message>
        <source>Swap is the system&apos;s: an administrator turns it off or on (swapoff, swapon).</source>
        <translation>Swap gehört dem System: Ein Administrator deaktiviert oder aktiviert ihn (swapoff, swapon).</translation>
    </message>
    <message>
        <source>&amp;Partition</source>
        <translation>&amp;Partition</translation>
    </message>
    <message>
        <source>Partwise</source>
        <translation>Partwise</translation>
    </message>
    <message>
        <source>The partition is in use by: %1.</source>
        <translation>Die Partition wird benutzt von: %1.</translation>
    </message>
    <message>
        <source>Close those programs (or leave the folder in them), then try again. Partwise never forces an unmount.</source>
        <translation>Schließen Sie diese Programme (oder verlassen Sie darin den Ordner) und versuchen Sie es dann erneut. Partwise erzwingt das Aushängen nie.</translation>
    </message>
    <message>
        <source>Try &amp;Again</source>
        <translation>&amp;Erneut versuchen</translation>
    </message>
    <message>
        <source>Unmounted.</source>
        <translation>Ausgehängt.</translation>
    </message>
    <message>
        <source>Mount On</source>
        <translation>Einhängen in</translation>
    </message>
    <message>
        <source>Where should the partition be mounted?</source>
        <translation>Wo soll die Partition eingehängt werden?</translation>
    </message>
    <message>
        <source>Choose a &amp;Folder…</source>
        <translation>&amp;Ordner wählen…</translation>
    </message>
    <message>
        <source>Under /run/&amp;media</source>
        <translation>Unter /run/&amp;media</translation>
    </message>
    <message>
        <source>A folder must be your own. The partition is mounted without set-user-ID programs and device files.</source>
        <translation>Der Ordner muss Ihnen gehören. Die Partition wird ohne Set-User-ID-Programme und Gerätedateien eingehängt.</translation>
    </message>
    <message>
        <source>Mounted.</source>
        <translation>Eingehängt.</translation>
    </message>
    <message>
        <source>Swap turned off.</source>
        <translation>Swap deaktiviert.</translation>
    </message>
    <message>
        <source>Swap turned on.</source>
        <translation>Swap aktiviert.</translation>
    </message>
    <message>
        <source>Mount Back</source>
        <translation>Wieder einhängen</translation>
    </message>
    <message>
        <source>Partwise unmounted partitions of %1 for this job. Mount them back where they were?</source>
        <translation>Partwise hat für diesen Auftrag Partitionen von %1 ausgehängt. Sollen sie wieder dort eingehängt werden, wo sie waren?</translation>
    </message>
    <message>
        <source>Mounted back.</source>
        <translation>Wieder eingehängt.</translation>
    </message>
    <message>
        <source>The disk is no longer listed.</source>
        <translation>Das Laufwerk ist nicht mehr aufgeführt.</translation>
    </message>
</context>
<context>
    <name>MountMark</name>
    <message>
        <source>Mounted on %1</source>
        <translation>Eingehängt in %1</translation>
    </message>
    <message>
        <source>Active swap</source>
        <translation>Aktiver Swap</translation>
    </message>
</context>
<context>
    <name>NewTableDialog</name>
    <message>
        <source>New Partition Table</source>
        <translation>Neue Partitionstabelle</translation>
    </message>
    <message>
        <source>&lt;b&gt;A new partition table erases the partition on %1.&lt;/b&gt; Its data becomes unreachable once the queue is applied.</source>
        <translation>&lt;b&gt;Eine neue Partitionstabelle löscht die Partition auf %1.&lt;/b&gt; Ihre Daten sind nicht mehr erreichbar, sobald die Warteschlange angewendet ist.</translation>
    </message>
    <message>
        <source>&lt;b&gt;A new partition table erases all %1 on %2.&lt;/b&gt; Their data becomes unreachable once the queue is applied.</source>
        <translation>&lt;b&gt;Eine neue Partitionstabelle löscht alle %1 auf %2.&lt;/b&gt; Ihre Daten sind nicht mehr erreichbar, sobald die Warteschlange angewendet ist.</translation>
    </message>
    <message>
        <source>&lt;b&gt;A new partition table replaces whatever %1 holds.&lt;/b&gt;</source>
        <translation>&lt;b&gt;Eine neue Partitionstabelle ersetzt alles, was %1 enthält.&lt;/b&gt;</translation>
    </message>
    <message>
        <source>GPT (GUID partition table)</source>
        <translation>GPT (GUID-Partitionstabelle)</translation>
    </message>
    <message>
        <source>MBR (msdos; at most 4 primaries, 2 TiB with 512-byte sectors)</source>
        <translation>MBR (msdos; höchstens 4 primäre, 2 TiB bei Sektoren zu 512 Byte)</translation>
    </message>
    <message>
        <source>&amp;Type:</source>
        <translation>&amp;Typ:</translation>
    </message>
    <message>
        <source>&amp;Add to Queue</source>
        <translation>Zur &amp;Warteschlange hinzufügen</translation>
    </message>
</context>
<context>
    <name>Operation</name>
    <message>
        <source>The new partition table destroys the %1 filesystem that fills the whole of %2, and everything on it.</source>
        <translation>Die neue Partitionstabelle zerstört das Dateisystem %1, das ganz %2 ausfüllt, und alles darauf.</translation>
    </message>
    <message>
        <source>Create a new %1 partition table (erases all partitions)</source>
        <translation>Neue %1-Partitionstabelle anlegen (löscht alle Partitionen)</translation>
    </message>
    <message>
        <source>all the free space</source>
        <translation>ganzer freier Platz</translation>
    </message>
    <message>
        <source>Create a %1 partition of %2</source>
        <translation>Neue %1 Partition (%2)</translation>
    </message>
    <message>
        <source>, formatted %1</source>
        <translation>, formatiert als %1</translation>
    </message>
    <message>
        <source>, labelled “%1”</source>
        <translation>, Bezeichnung „%1“</translation>
    </message>
    <message>
        <source>, aligned to %1</source>
        <translation>, ausgerichtet an %1</translation>
    </message>
    <message>
        <source>Delete partition %1</source>
        <translation>Partition %1 löschen</translation>
    </message>
    <message>
        <source>Format partition %1 as %2</source>
        <translation>Partition %1 als %2 formatieren</translation>
    </message>
    <message>
        <source>Set the filesystem label of partition %1 to “%2”</source>
        <translation>Dateisystembezeichnung von Partition %1 auf „%2“ setzen</translation>
    </message>
    <message>
        <source>Name partition %1 “%2”</source>
        <translation>Partition %1 „%2“ nennen</translation>
    </message>
    <message>
        <source>Set the %1 flag on partition %2</source>
        <translation>Markierung %1 auf Partition %2 setzen</translation>
    </message>
    <message>
        <source>Clear the %1 flag on partition %2</source>
        <translation>Markierung %1 von Partition %2 entfernen</translation>
    </message>
    <message>
        <source>Move partition %1 to start at %2 and resize it to %3</source>
        <translation>Partition %1 nach %2 verschieben, Größe %3</translation>
    </message>
    <message>
        <source>Move partition %1 to start at %2 and extend it to the end of the free space</source>
        <translation>Partition %1 nach %2 verschieben und bis zum Ende des freien Platzes vergrößern</translation>
    </message>
    <message>
        <source>Resize partition %1 to %2</source>
        <translation>Größe von Partition %1 auf %2 ändern</translation>
    </message>
    <message>
        <source>Resize partition %1 to all the free space around it</source>
        <translation>Partition %1 auf den ganzen freien Platz um sie herum vergrößern</translation>
    </message>
    <message>
        <source>Check and repair the filesystem on partition %1</source>
        <translation>Dateisystem auf Partition %1 prüfen und reparieren</translation>
    </message>
    <message>
        <source>Check the filesystem on partition %1</source>
        <translation>Dateisystem auf Partition %1 prüfen</translation>
    </message>
    <message>
        <source>extended</source>
        <translation>erweiterte</translation>
    </message>
    <message>
        <source>logical</source>
        <translation>logische</translation>
    </message>
    <message>
        <source>primary</source>
        <translation>primäre</translation>
    </message>
    <message>
        <source>MiB (the grain)</source>
        <translation>MiB (das Raster)</translation>
    </message>
    <message>
        <source>4 KiB</source>
        <translation>4 KiB</translation>
    </message>
    <message>
        <source>cylinders</source>
        <translation>Zylinder</translation>
    </message>
    <message>
        <source>nothing (exact sectors)</source>
        <translation>nichts (genaue Sektoren)</translation>
    </message>
    <message>
        <source>the source&apos;s size</source>
        <translation>Größe der Quelle</translation>
    </message>
    <message>
        <source>Paste partition %1 of %2 as a new %3 partition of %4</source>
        <translation>Partition %1 von %2 als neue %3 Partition (%4) einfügen</translation>
    </message>
    <message>
        <source>Give the filesystem on partition %1 a new UUID</source>
        <translation>Dem Dateisystem auf Partition %1 eine neue UUID geben</translation>
    </message>
    <message>
        <source>Give partition %1 a new partition GUID</source>
        <translation>Partition %1 eine neue Partitions-GUID geben</translation>
    </message>
    <message>
        <source>, holding its %1 filesystem</source>
        <translation>, mit ihrem Dateisystem %1</translation>
    </message>
    <message>
        <source>, shrunk on the way</source>
        <translation>, unterwegs verkleinert</translation>
    </message>
    <message>
        <source>, with its flags (%1)</source>
        <translation>, mit ihren Flags (%1)</translation>
    </message>
    <message>
        <source>, made anew at that size</source>
        <translation>, in dieser Größe neu angelegt</translation>
    </message>
    <message>
        <source>Give the filesystem on partition %1 the new UUID %2; every reference to the old UUID in %3 on this disk&apos;s ext2/3/4 and FAT filesystems that are not in use is rewritten to it; each changed file is kept beside itself as NAME%4, and each filesystem is checked after</source>
        <translation>Dem Dateisystem auf Partition %1 die neue UUID %2 geben; jeder Verweis auf die alte UUID in %3 auf den nicht benutzten ext2/3/4- und FAT-Dateisystemen dieses Datenträgers wird auf sie umgeschrieben; jede geänderte Datei bleibt als NAME%4 neben sich erhalten, und jedes Dateisystem wird danach geprüft</translation>
    </message>
    <message>
        <source>Set the filesystem label of partition %1 to “%2”; every LABEL=%3 in %4 on this disk&apos;s ext2/3/4 and FAT filesystems that are not in use is rewritten to it; each changed file is kept beside itself as NAME%5, and each filesystem is checked after</source>
        <translation>Die Dateisystembezeichnung von Partition %1 auf „%2“ setzen; jedes LABEL=%3 in %4 auf den nicht benutzten ext2/3/4- und FAT-Dateisystemen dieses Datenträgers wird auf sie umgeschrieben; jede geänderte Datei bleibt als NAME%5 neben sich erhalten, und jedes Dateisystem wird danach geprüft</translation>
    </message>
</context>
<context>
    <name>OperationPrompts</name>
    <message>
        <source>Filesystem Label</source>
        <translation>Dateisystembezeichnung</translation>
    </message>
    <message>
        <source>New label for the %1 filesystem on %2:</source>
        <translation>Neue Bezeichnung für das %1-Dateisystem auf %2:</translation>
    </message>
    <message>
        <source>Partition Name</source>
        <translation>Partitionsname</translation>
    </message>
    <message>
        <source>GPT name of %1:</source>
        <translation>GPT-Name von %1:</translation>
    </message>
</context>
<context>
    <name>PartitionFlags</name>
    <message>
        <source>Bootable (MBR active flag; on GPT the same as esp)</source>
        <translation>Startfähig (MBR-Aktiv-Markierung; bei GPT dasselbe wie esp)</translation>
    </message>
    <message>
        <source>EFI system partition</source>
        <translation>EFI-Systempartition</translation>
    </message>
    <message>
        <source>BIOS boot partition for GRUB on GPT</source>
        <translation>BIOS-Boot-Partition für GRUB auf GPT</translation>
    </message>
    <message>
        <source>Bootable by legacy BIOS firmware</source>
        <translation>Startfähig für herkömmliche BIOS-Firmware</translation>
    </message>
    <message>
        <source>Microsoft basic data</source>
        <translation>Microsoft-Basisdaten</translation>
    </message>
    <message>
        <source>Hidden from operating systems that honour it</source>
        <translation>Verborgen vor Betriebssystemen, die das beachten</translation>
    </message>
    <message>
        <source>LVM physical volume</source>
        <translation>Physisches LVM-Volume</translation>
    </message>
    <message>
        <source>Linux software RAID member</source>
        <translation>Mitglied eines Linux-Software-RAID</translation>
    </message>
    <message>
        <source>Linux swap</source>
        <translation>Linux-Auslagerungsbereich</translation>
    </message>
    <message>
        <source>Use LBA addressing (DOS/Windows)</source>
        <translation>LBA-Adressierung verwenden (DOS/Windows)</translation>
    </message>
    <message>
        <source>Microsoft reserved: room Windows keeps for itself</source>
        <translation>Microsoft-reserviert: Platz, den Windows sich selbst vorbehält</translation>
    </message>
    <message>
        <source>A maker&apos;s recovery or diagnostics partition</source>
        <translation>Wiederherstellungs- oder Diagnosepartition des Herstellers</translation>
    </message>
    <message>
        <source>PowerPC PReP boot partition: the boot loader of IBM POWER machines</source>
        <translation>PowerPC-PReP-Bootpartition: der Bootloader von IBM-POWER-Rechnern</translation>
    </message>
    <message>
        <source>Boot partition of palo, the loader of HP PA-RISC machines</source>
        <translation>Bootpartition von palo, dem Lader von HP-PA-RISC-Rechnern</translation>
    </message>
    <message>
        <source>Intel Rapid Start: where the firmware keeps a hibernation</source>
        <translation>Intel Rapid Start: hier hält die Firmware einen Ruhezustand</translation>
    </message>
    <message>
        <source>Linux /home, which systemd mounts without an fstab line</source>
        <translation>Linux /home, das systemd ohne fstab-Zeile einhängt</translation>
    </message>
    <message>
        <source>A ChromeOS kernel partition</source>
        <translation>Eine ChromeOS-Kernelpartition</translation>
    </message>
    <message>
        <source>Extended boot partition (/boot) of the Boot Loader Specification</source>
        <translation>Erweiterte Bootpartition (/boot) der Boot Loader Specification</translation>
    </message>
</context>
<context>
    <name>PartitionModel</name>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Bezeichnung</translation>
    </message>
    <message>
        <source>First sector</source>
        <translation>Erster Sektor</translation>
    </message>
    <message>
        <source>Last sector</source>
        <translation>Letzter Sektor</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Markierungen</translation>
    </message>
    <message>
        <source>Alignment</source>
        <translation>Ausrichtung</translation>
    </message>
    <message>
        <source>%1; %2 data misaligned</source>
        <extracomment>The list&apos;s alignment column: the partition&apos;s status, then its inner layer&apos;s.</extracomment>
        <translation>%1; %2-Daten falsch ausgerichtet</translation>
    </message>
    <message>
        <source>Its %1 data starts %2 bytes past a physical sector: every write to it straddles two. Moving the partition cannot fix that.</source>
        <extracomment>%1 is &quot;LUKS1&quot;, &quot;LUKS2&quot; or &quot;LVM physical volume&quot;; %2 a byte count.</extracomment>
        <translation>Die %1-Daten beginnen %2 Byte nach einem physischen Sektor: Jeder Schreibvorgang überspannt zwei. Verschieben der Partition behebt das nicht.</translation>
    </message>
</context>
<context>
    <name>PartitionMounter</name>
    <message>
        <source>Partitions of an image file are not mounted by Partwise.</source>
        <translation>Partitionen einer Abbilddatei hängt Partwise nicht ein.</translation>
    </message>
    <message>
        <source>The helper for %1 is not running; connect again first.</source>
        <translation>Der Helfer für %1 läuft nicht; verbinden Sie sich zuerst erneut.</translation>
    </message>
    <message>
        <source>Mounting needs the administrator&apos;s helper.</source>
        <translation>Zum Einhängen wird der Helfer des Administrators gebraucht.</translation>
    </message>
    <message>
        <source>No answer.</source>
        <translation>Keine Antwort.</translation>
    </message>
    <message>
        <source>udisks2 refused (%1); %2</source>
        <translation>udisks2 hat abgelehnt (%1); %2</translation>
    </message>
    <message>
        <source>Goes through udisks2 (no administrator&apos;s password for this session&apos;s removable drives), or through the administrator&apos;s helper where udisks2 refuses.</source>
        <translation>Geht über udisks2 (ohne Administratorpasswort für die Wechseldatenträger dieser Sitzung), oder über den Helfer des Administrators, wo udisks2 ablehnt.</translation>
    </message>
    <message>
        <source>Done through udisks2, without the administrator&apos;s helper.</source>
        <translation>Über udisks2 erledigt, ohne den Helfer des Administrators.</translation>
    </message>
</context>
<context>
    <name>PassphraseFields</name>
    <message>
        <source>&amp;Passphrase:</source>
        <translation>&amp;Passphrase:</translation>
    </message>
    <message>
        <source>&amp;Repeat:</source>
        <translation>&amp;Wiederholen:</translation>
    </message>
    <message>
        <source>The volume is encrypted with this passphrase; it is asked for whenever the volume is opened. It is not saved anywhere.</source>
        <translation>Der Datenträger wird mit dieser Passphrase verschlüsselt; sie wird bei jedem Öffnen abgefragt. Sie wird nirgends gespeichert.</translation>
    </message>
    <message>
        <source>The two passphrases differ.</source>
        <translation>Die beiden Passphrasen unterscheiden sich.</translation>
    </message>
    <message>
        <source>The passphrases match.</source>
        <translation>Die Passphrasen stimmen überein.</translation>
    </message>
</context>
<context>
    <name>PendingOperationsDock</name>
    <message>
        <source>Pending Operations</source>
        <translation>Ausstehende Vorgänge</translation>
    </message>
    <message>
        <source>The disk as it is now</source>
        <translation>Der Datenträger, wie er jetzt ist</translation>
    </message>
    <message>
        <source>Pending operations</source>
        <translation>Ausstehende Vorgänge</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>Rü&amp;ckgängig</translation>
    </message>
    <message>
        <source>Red&amp;o</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>Save Pla&amp;n…</source>
        <translation>Plan spe&amp;ichern…</translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation>&amp;Anwenden</translation>
    </message>
</context>
<context>
    <name>PictureExporter</name>
    <message>
        <source>Cannot write %1.</source>
        <translation>%1 kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG-Bild (*.png)</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG-Zeichnung (*.svg)</translation>
    </message>
</context>
<context>
    <name>PkexecFailure</name>
    <message>
        <source>The administrator helper was not started: the password question was closed.</source>
        <translation>Der Administrator-Helfer wurde nicht gestartet: die Passwortabfrage wurde geschlossen.</translation>
    </message>
    <message>
        <source>The administrator helper cannot be started: </source>
        <translation>Der Administrator-Helfer kann nicht gestartet werden: </translation>
    </message>
    <message>
        <source>polkit, which pkexec asks for permission, is not installed or not running on this computer. Install the Debian packages polkitd and pkexec (a desktop also needs a polkit agent to ask for the password), or run partwise-cli as root instead.</source>
        <translation>polkit, bei dem pkexec um Erlaubnis fragt, ist auf diesem Rechner nicht installiert oder läuft nicht. Installieren Sie die Debian-Pakete polkitd und pkexec (ein Desktop braucht außerdem einen polkit-Agenten, der nach dem Passwort fragt) oder führen Sie partwise-cli als root aus.</translation>
    </message>
    <message>
        <source>no polkit agent is running to ask for the password. A desktop session starts one; in a bare X session start one first (for example lxpolkit, from the Debian package lxpolkit).</source>
        <translation>es läuft kein polkit-Agent, der nach dem Passwort fragt. Eine Desktop-Sitzung startet einen; in einer nackten X-Sitzung starten Sie zuerst einen (zum Beispiel lxpolkit aus dem Debian-Paket lxpolkit).</translation>
    </message>
    <message>
        <source>polkit did not allow it (the password was wrong, or this user may not administer this computer).</source>
        <translation>polkit hat es nicht erlaubt (das Passwort war falsch, oder dieser Benutzer darf diesen Rechner nicht verwalten).</translation>
    </message>
    <message>
        <source>pkexec could not get permission from polkit (the Debian packages polkitd and pkexec).</source>
        <translation>pkexec bekam von polkit keine Erlaubnis (die Debian-Pakete polkitd und pkexec).</translation>
    </message>
</context>
<context>
    <name>Placement</name>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>MiB (grain %1)</source>
        <translation>MiB (Raster %1)</translation>
    </message>
    <message>
        <source>Start and end on the grain from the preferences (%1)</source>
        <translation>Anfang und Ende auf dem Raster aus den Einstellungen (%1)</translation>
    </message>
    <message>
        <source>4 KiB</source>
        <translation>4 KiB</translation>
    </message>
    <message>
        <source>Cylinder (legacy)</source>
        <translation>Zylinder (veraltet)</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Partition %1: sectors %2 – %3, %4</source>
        <translation>Partition %1: Sektoren %2 – %3, %4</translation>
    </message>
    <message>
        <source> — %1: %2</source>
        <translation> — %1: %2</translation>
    </message>
    <message>
        <source>Align &amp;to:</source>
        <translation>&amp;Ausrichten an:</translation>
    </message>
    <message>
        <source>The free space is too small to hold an aligned partition.</source>
        <translation>Der freie Platz ist zu klein für eine ausgerichtete Partition.</translation>
    </message>
    <message>
        <source>The partition does not fit: %1 sectors asked for, %2 available after alignment.</source>
        <translation>Die Partition passt nicht: %1 Sektoren verlangt, %2 nach der Ausrichtung verfügbar.</translation>
    </message>
    <message>
        <source>The partition cannot grow that far: only %1 free after it.</source>
        <translation>So weit kann die Partition nicht wachsen: dahinter sind nur %1 frei.</translation>
    </message>
</context>
<context>
    <name>PowerOffAction</name>
    <message>
        <source>Power &amp;Off / Safely Remove</source>
        <translation>Ausschalten / sicher ent&amp;fernen</translation>
    </message>
    <message>
        <source>Flush the USB drive and power it off so it can be unplugged</source>
        <translation>Den USB-Datenträger leeren und ausschalten, damit er abgezogen werden kann</translation>
    </message>
    <message>
        <source>Choose a USB drive first.</source>
        <translation>Wählen Sie zuerst einen USB-Datenträger.</translation>
    </message>
    <message>
        <source>An image file is no drive to power off.</source>
        <translation>Eine Abbilddatei ist kein Datenträger, der sich ausschalten lässt.</translation>
    </message>
    <message>
        <source>Only USB drives are powered off; this one is not.</source>
        <translation>Nur USB-Datenträger werden ausgeschaltet; dieser ist keiner.</translation>
    </message>
    <message>
        <source>Operations are pending on this drive: apply or clear them first.</source>
        <translation>Für diesen Datenträger stehen Vorgänge aus: Führen Sie sie zuerst aus oder verwerfen Sie sie.</translation>
    </message>
    <message>
        <source>Goes through the administrator&apos;s helper (sysfs, as root).</source>
        <translation>Läuft über den Helfer des Administrators (sysfs, als root).</translation>
    </message>
    <message>
        <source>Runs in this window, which runs as root (sysfs).</source>
        <translation>Läuft in diesem Fenster, das als root läuft (sysfs).</translation>
    </message>
    <message>
        <source>Partwise</source>
        <translation>Partwise</translation>
    </message>
    <message>
        <source>%1 is powered off; it can be unplugged now.</source>
        <translation>%1 ist ausgeschaltet und kann jetzt abgezogen werden.</translation>
    </message>
</context>
<context>
    <name>PracticeDiskDialog</name>
    <message>
        <source>New Practice Disk</source>
        <translation>Neuer Übungsdatenträger</translation>
    </message>
    <message>
        <source>A practice disk is a sparse image file: it takes almost no space and nothing on your real disks is touched.</source>
        <translation>Ein Übungsdatenträger ist eine Sparse-Abbilddatei: Sie belegt kaum Platz, und Ihre echten Datenträger bleiben unberührt.</translation>
    </message>
    <message>
        <source>&amp;Layout:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>&amp;Size:</source>
        <translation>&amp;Größe:</translation>
    </message>
    <message>
        <source>512 bytes</source>
        <translation>512 Bytes</translation>
    </message>
    <message>
        <source>4096 bytes (4Kn)</source>
        <translation>4096 Bytes (4Kn)</translation>
    </message>
    <message>
        <source>Logical sec&amp;tor size:</source>
        <translation>Logische &amp;Sektorgröße:</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>C&amp;reate</source>
        <translation>&amp;Erstellen</translation>
    </message>
    <message>
        <source>Empty (no partition table)</source>
        <translation>Leer (keine Partitionstabelle)</translation>
    </message>
    <message>
        <source>Windows XP (sector 63)</source>
        <translation>Windows XP (Sektor 63)</translation>
    </message>
    <message>
        <source>Old fdisk with logical partitions</source>
        <translation>Altes fdisk mit logischen Partitionen</translation>
    </message>
    <message>
        <source>GPT at sector 34</source>
        <translation>GPT ab Sektor 34</translation>
    </message>
    <message>
        <source>Modern 1 MiB layout</source>
        <translation>Moderne Aufteilung mit 1 MiB</translation>
    </message>
    <message>
        <source>Demo: misaligned and aligned partitions</source>
        <translation>Demo: falsch und richtig ausgerichtete Partitionen</translation>
    </message>
    <message>
        <source>4Kn disk (4096-byte sectors)</source>
        <translation>4Kn-Datenträger (4096-Byte-Sektoren)</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>File &amp;name:</source>
        <translation>Datei&amp;name:</translation>
    </message>
    <message>
        <source>Folder for the Practice Disk</source>
        <translation>Ordner für den Übungsdatenträger</translation>
    </message>
    <message>
        <source>Choose a folder for the image.</source>
        <translation>Wählen Sie einen Ordner für das Abbild.</translation>
    </message>
    <message>
        <source>There is no folder %1.</source>
        <translation>Den Ordner %1 gibt es nicht.</translation>
    </message>
    <message>
        <source>Give the image a file name.</source>
        <translation>Geben Sie dem Abbild einen Dateinamen.</translation>
    </message>
    <message>
        <source>The file name cannot hold a “/”: choose the folder above.</source>
        <translation>Der Dateiname darf kein „/“ enthalten: Wählen Sie den Ordner darüber.</translation>
    </message>
    <message>
        <source>%1 exists already: choose another name.</source>
        <translation>%1 gibt es schon: Wählen Sie einen anderen Namen.</translation>
    </message>
    <message>
        <source>Creates %1</source>
        <translation>Erstellt %1</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>1 MiB (recommended)</source>
        <translation>1 MiB (empfohlen)</translation>
    </message>
    <message>
        <source>4 KiB (physical sector only)</source>
        <translation>4 KiB (nur physischer Sektor)</translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation>Eigenes …</translation>
    </message>
    <message>
        <source>&amp;Grain:</source>
        <translation>&amp;Raster:</translation>
    </message>
    <message>
        <source>e.g. 512k, 2m, 4m</source>
        <translation>z. B. 512k, 2m, 4m</translation>
    </message>
    <message>
        <source>C&amp;ustom grain:</source>
        <translation>&amp;Eigenes Raster:</translation>
    </message>
    <message>
        <source>&amp;Trust the drive&apos;s reported physical sector size</source>
        <translation>Der vom Laufwerk gemeldeten physischen Sektorgröße &amp;vertrauen</translation>
    </message>
    <message>
        <source>Off: starts are checked against at least 4096 bytes, because many Advanced Format drives claim 512-byte sectors.</source>
        <translation>Aus: Anfänge werden gegen mindestens 4096 Bytes geprüft, weil viele Advanced-Format-Laufwerke Sektoren zu 512 Byte angeben.</translation>
    </message>
    <message>
        <source>Enter a multiple of 512 bytes: a RAID stripe (16–256 KiB × data disks) or an SSD erase block (512 KiB – 4 MiB).</source>
        <translation>Geben Sie ein Vielfaches von 512 Bytes ein: einen RAID-Stripe (16–256 KiB × Datenlaufwerke) oder einen SSD-Löschblock (512 KiB – 4 MiB).</translation>
    </message>
    <message>
        <source>Partitions should start on multiples of %1 (%2 bytes).</source>
        <translation>Partitionen sollten an Vielfachen von %1 (%2 Bytes) beginnen.</translation>
    </message>
    <message>
        <source>Where moving a partition of a disk keeps the record that lets it finish after a crash. Images keep theirs beside them. Empty: %1.</source>
        <translation>Wo das Verschieben einer Partition eines Datenträgers die Aufzeichnung ablegt, mit der es nach einem Absturz zu Ende geführt wird. Abbilder legen ihre daneben ab. Leer: %1.</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>Folder for Move Journals</source>
        <translation>Ordner für Verschiebe-Journale</translation>
    </message>
    <message>
        <source>Move &amp;journals:</source>
        <translation>Verschiebe-&amp;Journale:</translation>
    </message>
    <message>
        <source>A move interrupted by a crash or a power cut finishes from its journal there.</source>
        <translation>Ein durch Absturz oder Stromausfall unterbrochenes Verschieben wird aus seinem Journal dort zu Ende geführt.</translation>
    </message>
    <message>
        <source>%1 is in memory (%2), as in a live session: a power cut during a move would lose its journal. Choose a folder on another disk; a USB stick will do.</source>
        <translation>%1 liegt im Arbeitsspeicher (%2), wie in einer Live-Sitzung: Ein Stromausfall während eines Verschiebens würde sein Journal löschen. Wählen Sie einen Ordner auf einem anderen Datenträger; ein USB-Stick genügt.</translation>
    </message>
</context>
<context>
    <name>ProbeChart</name>
    <message>
        <source>Write time per offset</source>
        <translation>Schreibzeit je Versatz</translation>
    </message>
    <message>
        <source>The write times appear here.</source>
        <translation>Hier erscheinen die Schreibzeiten.</translation>
    </message>
    <message>
        <source>ms per write</source>
        <translation>ms je Schreibvorgang</translation>
    </message>
    <message>
        <source>%1 KiB writes</source>
        <translation>Schreibvorgänge zu %1 KiB</translation>
    </message>
    <message>
        <source>offset of the write (KiB)</source>
        <translation>Versatz des Schreibvorgangs (KiB)</translation>
    </message>
    <message>
        <source>covers whole physical sectors</source>
        <translation>deckt ganze physische Sektoren ab</translation>
    </message>
    <message>
        <source>straddles a physical sector</source>
        <translation>überschreitet eine Sektorgrenze</translation>
    </message>
    <message>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
</context>
<context>
    <name>ProbeDialog</name>
    <message>
        <source>Measure Physical Sector</source>
        <translation>Physischen Sektor messen</translation>
    </message>
    <message>
        <source>&lt;p&gt;Partwise times writes to &lt;b&gt;%1&lt;/b&gt;: 4 KiB at every 512-byte offset, and 8 to 32 KiB at every 4 KiB step, at several places over the drive. A write that covers only part of a physical sector takes the drive longer, so the slow offsets give its real sector size away, whatever it reports.&lt;/p&gt;&lt;p&gt;Each write puts back the bytes that were there, and only free space and partitions nothing uses are written to. It takes about 10 seconds. A power cut during a write could damage the sector being written.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Partwise misst Schreibvorgänge auf &lt;b&gt;%1&lt;/b&gt;: 4 KiB an jedem 512-Byte-Versatz und 8 bis 32 KiB in Schritten von 4 KiB, an mehreren Stellen über das Laufwerk verteilt. Ein Schreibvorgang, der einen physischen Sektor nur teilweise abdeckt, dauert für das Laufwerk länger; die langsamen Versätze verraten so seine wahre Sektorgröße, was immer es meldet.&lt;/p&gt;&lt;p&gt;Jeder Schreibvorgang schreibt die Bytes zurück, die schon dort standen, und nur freier Bereich und unbenutzte Partitionen werden beschrieben. Es dauert etwa 10 Sekunden. Ein Stromausfall während eines Schreibvorgangs könnte den gerade geschriebenen Sektor beschädigen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Measure</source>
        <translation>&amp;Messen</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird angehalten…</translation>
    </message>
    <message>
        <source>Timing writes… %p%</source>
        <translation>Schreibzeiten werden gemessen… %p %</translation>
    </message>
    <message>
        <source>Remembered for this drive: check, create and realign use it where it is larger than what the drive reports.</source>
        <translation>Für dieses Laufwerk gespeichert: Prüfen, Anlegen und Neuausrichten verwenden den Wert, wo er größer ist als der vom Laufwerk gemeldete.</translation>
    </message>
    <message>
        <source>An earlier measurement of this drive is forgotten: Partwise assumes at least 4096-byte sectors again.</source>
        <translation>Eine frühere Messung dieses Laufwerks wurde verworfen: Partwise nimmt wieder Sektoren von mindestens 4096 Byte an.</translation>
    </message>
    <message>
        <source>Not remembered: this drive cannot be told apart from others (it has no WWN, serial number or backing file).</source>
        <translation>Nicht gespeichert: Dieses Laufwerk lässt sich nicht von anderen unterscheiden (es hat keine WWN, keine Seriennummer und keine zugrunde liegende Datei).</translation>
    </message>
    <message>
        <source>&amp;Measure Again</source>
        <translation>Erneut &amp;messen</translation>
    </message>
    <message>
        <source>Cancelled: nothing is concluded, and every write done had put back the bytes that were there.</source>
        <translation>Abgebrochen: Es wird nichts geschlossen, und jeder erfolgte Schreibvorgang hatte die Bytes zurückgeschrieben, die dort standen.</translation>
    </message>
    <message>
        <source>The drive was not measured.</source>
        <translation>Das Laufwerk wurde nicht gemessen.</translation>
    </message>
    <message>
        <source>Writes: %1 · places: %2 · rounds: %3 · time: %4 s · %5.</source>
        <translation>Schreibvorgänge: %1 · Stellen: %2 · Durchgänge: %3 · Dauer: %4 s · %5.</translation>
    </message>
</context>
<context>
    <name>ProbeVerdict</name>
    <message>
        <source>Physical sector %1 bytes, offset %2: writes that straddle it took %3× as long.</source>
        <translation>Physischer Sektor %1 Byte, Versatz %2: Schreibvorgänge über seine Grenzen dauerten %3-mal so lange.</translation>
    </message>
    <message>
        <source>Unclear: writes straddling %1-byte sectors at offset %2 took %3× as long overall, but only at %4 of %5 places. Nothing is concluded; measure again while the drive is otherwise idle.</source>
        <translation>Unklar: Schreibvorgänge über die Grenzen von %1-Byte-Sektoren bei Versatz %2 dauerten insgesamt %3-mal so lange, aber nur an %4 von %5 Stellen. Daraus wird nichts geschlossen; messen Sie erneut, während das Laufwerk sonst nichts zu tun hat.</translation>
    </message>
    <message>
        <source>No penalty measured: the drive behaves like %1-byte sectors here, or a cache hides it.</source>
        <translation>Keine Verzögerung gemessen: Das Laufwerk verhält sich hier wie eines mit %1-Byte-Sektoren, oder ein Cache verbirgt sie.</translation>
    </message>
</context>
<context>
    <name>RealignBanner</name>
    <message>
        <source>Real&amp;ign…</source>
        <translation>Ne&amp;u ausrichten…</translation>
    </message>
    <message>
        <source>Open the realignment wizard for this disk</source>
        <translation>Den Assistenten zum Neuausrichten für diesen Datenträger öffnen</translation>
    </message>
    <message>
        <source>F&amp;inish…</source>
        <translation>Ab&amp;schließen…</translation>
    </message>
    <message>
        <source>Finish the interrupted realignment</source>
        <translation>Das unterbrochene Neuausrichten abschließen</translation>
    </message>
    <message>
        <source>1 partition on this disk is misaligned: each 4 KiB write straddles two physical sectors, which makes writes slower.</source>
        <translation>1 Partition auf diesem Datenträger ist falsch ausgerichtet: Jeder 4-KiB-Schreibzugriff überspannt zwei physische Sektoren, was das Schreiben verlangsamt.</translation>
    </message>
    <message>
        <source>%1 partitions on this disk are misaligned: each 4 KiB write straddles two physical sectors, which makes writes slower.</source>
        <translation>%1 Partitionen auf diesem Datenträger sind falsch ausgerichtet: Jeder 4-KiB-Schreibzugriff überspannt zwei physische Sektoren, was das Schreiben verlangsamt.</translation>
    </message>
    <message>
        <source>Realigning moves them to the grain and keeps their data.</source>
        <translation>Neu ausrichten verschiebt sie auf das Raster und behält ihre Daten.</translation>
    </message>
    <message>
        <source>partition %1</source>
        <translation>Partition %1</translation>
    </message>
    <message>
        <source>the partition being moved</source>
        <translation>die gerade verschobene Partition</translation>
    </message>
    <message>
        <source>A realignment of this disk was interrupted. Nothing is lost, but %1 should not be used until it is finished (journal: %2).</source>
        <translation>Ein Neuausrichten dieses Datenträgers wurde unterbrochen. Nichts ist verloren, aber %1 sollte bis zum Abschluss nicht benutzt werden (Journal: %2).</translation>
    </message>
</context>
<context>
    <name>RealignChoosePage</name>
    <message>
        <source>Choose the partitions and the target</source>
        <translation>Partitionen und Ziel wählen</translation>
    </message>
    <message>
        <source>Misaligned partitions are chosen for you; the others are optional.</source>
        <translation>Falsch ausgerichtete Partitionen sind schon gewählt; die anderen sind optional.</translation>
    </message>
    <message>
        <source>Move the partitions to</source>
        <translation>Partitionen verschieben auf</translation>
    </message>
    <message>
        <source>1 MiB grain (recommended)</source>
        <translation>1-MiB-Raster (empfohlen)</translation>
    </message>
    <message>
        <source>Suits every drive, SSD and RAID; each partition moves by up to 1 MiB. What partitioning tools use today.</source>
        <translation>Passt zu jedem Laufwerk, jeder SSD und jedem RAID; jede Partition wird um bis zu 1 MiB verschoben. So machen es heutige Partitionierungswerkzeuge.</translation>
    </message>
    <message>
        <source>4 KiB (smallest move)</source>
        <translation>4 KiB (kleinste Verschiebung)</translation>
    </message>
    <message>
        <source>The next physical sector: the least data to rewrite, enough for Advanced Format drives, but not on an SSD&apos;s or a RAID array&apos;s larger blocks.</source>
        <translation>Der nächste physische Sektor: am wenigsten Daten neu zu schreiben, genug für Advanced-Format-Laufwerke, aber nicht auf den größeren Blöcken einer SSD oder eines RAID-Verbunds.</translation>
    </message>
    <message>
        <source>%1 grain, as in the preferences</source>
        <translation>Raster von %1, wie in den Einstellungen</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Partitionen</translation>
    </message>
    <message>
        <source>Partitions to realign</source>
        <translation>Neu auszurichtende Partitionen</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Start sector</source>
        <translation>Startsektor</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>&amp;Verify the moved data (read it back and compare; slower)</source>
        <translation>Verschobene Daten &amp;überprüfen (zurücklesen und vergleichen; langsamer)</translation>
    </message>
    <message>
        <source>Partition %1</source>
        <translation>Partition %1</translation>
    </message>
    <message>
        <source>Partition %1 “%2”</source>
        <translation>Partition %1 „%2“</translation>
    </message>
    <message>
        <source>misaligned: %1 bytes past a %2 boundary</source>
        <translation>falsch ausgerichtet: %1 Bytes hinter einer Grenze von %2</translation>
    </message>
    <message>
        <source>on a physical sector, not on the %1 grain (optional)</source>
        <translation>auf einem physischen Sektor, nicht auf dem Raster von %1 (optional)</translation>
    </message>
    <message>
        <source>already on the %1 grain</source>
        <translation>schon auf dem Raster von %1</translation>
    </message>
</context>
<context>
    <name>RealignController</name>
    <message>
        <source>Real&amp;ign…</source>
        <translation>Neu ausr&amp;ichten…</translation>
    </message>
    <message>
        <source>Move misaligned partitions to the grain, keeping their data</source>
        <translation>Falsch ausgerichtete Partitionen samt ihren Daten auf das Raster verschieben</translation>
    </message>
    <message>
        <source>&amp;Disk</source>
        <translation>Daten&amp;träger</translation>
    </message>
    <message>
        <source>Realignment</source>
        <translation>Neuausrichten</translation>
    </message>
    <message>
        <source>Interrupted Realignment</source>
        <translation>Unterbrochenes Neuausrichten</translation>
    </message>
    <message>
        <source>&amp;Finish Now</source>
        <translation>Jetzt &amp;abschließen</translation>
    </message>
    <message>
        <source>&amp;Later</source>
        <translation>&amp;Später</translation>
    </message>
    <message>
        <source>Partition %1 had not finished moving.</source>
        <translation>Partition %1 war noch nicht fertig verschoben.</translation>
    </message>
    <message>
        <source>%1 of %2 partitions were done.</source>
        <translation>%1 von %2 Partitionen wurden fertig.</translation>
    </message>
    <message>
        <source>Apply on %1 was interrupted after %2 of %3 operations, during: %4

The journal %5 records how far it got. Finishing completes that operation and the ones after it. Until then, the partitions it changes may not be usable. Finish it now?</source>
        <translation>Das Anwenden auf %1 wurde nach %2 von %3 Operationen unterbrochen, während: %4

Das Journal %5 hält fest, wie weit es kam. Fertigstellen schließt diese Operation und die folgenden ab. Bis dahin sind die betroffenen Partitionen eventuell nicht nutzbar. Jetzt fertigstellen?</translation>
    </message>
    <message>
        <source>A realignment of %1 was interrupted. %2

The journal %3 records how far it got. Until it is finished, the partition being moved may not be usable. Finish it now?</source>
        <translation>Eine Neuausrichtung von %1 wurde unterbrochen. %2

Das Journal %3 hält fest, wie weit sie kam. Bis sie abgeschlossen ist, ist die verschobene Partition eventuell nicht nutzbar. Jetzt fertigstellen?</translation>
    </message>
    <message>
        <source>Interrupted Work Cannot Be Finished</source>
        <translation>Unterbrochene Arbeit kann nicht fertiggestellt werden</translation>
    </message>
    <message>
        <source>A realignment or Apply of %1 was interrupted, and its journal cannot be trusted, so Partwise will not finish it.</source>
        <translation>Eine Neuausrichtung oder ein Anwenden auf %1 wurde unterbrochen, und dem Journal ist nicht zu trauen; Partwise stellt es daher nicht fertig.</translation>
    </message>
    <message>
        <source>Interrupted Apply</source>
        <translation>Unterbrochenes Anwenden</translation>
    </message>
    <message>
        <source>The helper that serves %1 is not running.</source>
        <translation>Der Helfer, der %1 bedient, läuft nicht.</translation>
    </message>
    <message>
        <source>This disk is read-only, so Partwise cannot realign it; Drive → Copy Disk To… writes an aligned copy of it.</source>
        <translation>Dieser Datenträger ist schreibgeschützt, daher kann Partwise ihn nicht neu ausrichten; Laufwerk → Datenträger kopieren nach … schreibt eine ausgerichtete Kopie davon.</translation>
    </message>
    <message>
        <source>Open a disk or a disk image first.</source>
        <translation>Öffnen Sie zuerst einen Datenträger oder ein Datenträgerabbild.</translation>
    </message>
    <message>
        <source>The realignment wizard is open.</source>
        <translation>Der Neuausrichtungs-Assistent ist geöffnet.</translation>
    </message>
    <message>
        <source>Every partition on this disk is on the grain: there is nothing to realign.</source>
        <translation>Jede Partition dieses Datenträgers liegt auf dem Raster: Es gibt nichts neu auszurichten.</translation>
    </message>
    <message>
        <source>The helper that reads this disk cannot realign it.</source>
        <translation>Der Helfer, der diesen Datenträger liest, kann ihn nicht neu ausrichten.</translation>
    </message>
    <message>
        <source>The last job on this disk was a realignment: it moved data, which a table backup cannot move back.</source>
        <translation>Der letzte Auftrag auf diesem Datenträger war eine Neuausrichtung: Sie hat Daten verschoben, die eine Tabellensicherung nicht zurückverschieben kann.</translation>
    </message>
</context>
<context>
    <name>RealignIntroPage</name>
    <message>
        <source>Partitions out of step with the drive</source>
        <translation>Partitionen, die nicht zum Laufwerk passen</translation>
    </message>
    <message>
        <source>Realigning moves each partition&apos;s data to the next boundary that suits the drive, keeping its size and its contents. A journal kept outside the partition records every step, so a crash or a power cut in the middle loses nothing: Partwise finishes the move the next time the disk is opened.</source>
        <translation>Beim Neuausrichten werden die Daten jeder Partition zur nächsten Grenze verschoben, die zum Laufwerk passt; Größe und Inhalt bleiben erhalten. Ein Journal außerhalb der Partition hält jeden Schritt fest, sodass ein Absturz oder Stromausfall mittendrin nichts kostet: Partwise schließt das Verschieben ab, wenn der Datenträger das nächste Mal geöffnet wird.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, at sector %2, %3.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, ab Sektor %2, %3.</translation>
    </message>
    <message>
        <source>1 partition on this disk starts part-way into a physical sector (outlined in red).</source>
        <translation>1 Partition auf diesem Datenträger beginnt mitten in einem physischen Sektor (rot umrandet).</translation>
    </message>
    <message>
        <source>%1 partitions on this disk start part-way into a physical sector (outlined in red).</source>
        <translation>%1 Partitionen auf diesem Datenträger beginnen mitten in einem physischen Sektor (rot umrandet).</translation>
    </message>
    <message>
        <source>Every 4 KiB the system writes there straddles two of the drive&apos;s sectors, so the drive has to read, change and write both: writes can become several times slower, and flash wears faster.</source>
        <translation>Alle 4 KiB, die das System dort schreibt, überspannen zwei Sektoren des Laufwerks, das daher beide lesen, ändern und schreiben muss: Schreiben kann um ein Mehrfaches langsamer werden, und Flash-Speicher verschleißt schneller.</translation>
    </message>
    <message>
        <source>No partition on this disk is misaligned. 1 partition starts on a physical sector but not on the %1 grain (outlined in amber); moving it is optional.</source>
        <translation>Keine Partition auf diesem Datenträger ist falsch ausgerichtet. 1 Partition beginnt auf einem physischen Sektor, aber nicht auf dem Raster von %1 (bernsteinfarben umrandet); sie zu verschieben ist optional.</translation>
    </message>
    <message>
        <source>No partition on this disk is misaligned. %1 partitions start on a physical sector but not on the %2 grain (outlined in amber); moving them is optional.</source>
        <translation>Keine Partition auf diesem Datenträger ist falsch ausgerichtet. %1 Partitionen beginnen auf einem physischen Sektor, aber nicht auf dem Raster von %2 (bernsteinfarben umrandet); sie zu verschieben ist optional.</translation>
    </message>
    <message>
        <source>%1 — %2, %3-byte sectors, checked against %4 physical sectors.</source>
        <translation>%1 — %2, Sektoren zu %3 Bytes, geprüft gegen physische Sektoren zu %4.</translation>
    </message>
</context>
<context>
    <name>RealignMap</name>
    <message>
        <source>Nothing to show</source>
        <translation>Nichts anzuzeigen</translation>
    </message>
</context>
<context>
    <name>RealignPlanPage</name>
    <message>
        <source>The plan</source>
        <translation>Der Plan</translation>
    </message>
    <message>
        <source>Nothing has been written yet. Check the plan, then start it with Realign.</source>
        <translation>Noch wurde nichts geschrieben. Prüfen Sie den Plan und starten Sie ihn dann mit „Neu ausrichten“.</translation>
    </message>
    <message>
        <source>&amp;Realign</source>
        <translation>&amp;Neu ausrichten</translation>
    </message>
    <message>
        <source>Planned moves</source>
        <translation>Geplante Verschiebungen</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>Old start</source>
        <translation>Alter Anfang</translation>
    </message>
    <message>
        <source>Old end</source>
        <translation>Altes Ende</translation>
    </message>
    <message>
        <source>New start</source>
        <translation>Neuer Anfang</translation>
    </message>
    <message>
        <source>New end</source>
        <translation>Neues Ende</translation>
    </message>
    <message>
        <source>To move</source>
        <translation>Zu verschieben</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Before you start</source>
        <translation>Bevor Sie beginnen</translation>
    </message>
    <message>
        <source>Check &amp;Again</source>
        <translation>&amp;Erneut prüfen</translation>
    </message>
    <message>
        <source>&amp;I have a backup or accept the risk</source>
        <translation>Ich habe eine &amp;Sicherung oder nehme das Risiko in Kauf</translation>
    </message>
    <message>
        <source>Reading %1 and planning…</source>
        <translation>%1 wird gelesen und geplant …</translation>
    </message>
    <message>
        <source>Moving a partition rewrites its data in place. Partwise saves the partition table to %1 first and journals every step, but a failing drive or a bug can still lose data: back up what you cannot replace before you start.</source>
        <translation>Beim Verschieben einer Partition werden ihre Daten an Ort und Stelle neu geschrieben. Partwise sichert vorher die Partitionstabelle nach %1 und hält jeden Schritt im Journal fest, aber ein defektes Laufwerk oder ein Fehler kann trotzdem Daten kosten: Sichern Sie vor dem Start, was Sie nicht ersetzen können.</translation>
    </message>
    <message>
        <source>Cannot plan the realignment: %1</source>
        <translation>Das Neuausrichten kann nicht geplant werden: %1</translation>
    </message>
    <message>
        <source>Nothing can be moved: see why below.</source>
        <translation>Nichts kann verschoben werden: Die Gründe stehen unten.</translation>
    </message>
    <message>
        <source>swap: recreated with the same UUID and label, nothing copied</source>
        <translation>Swap: mit derselben UUID und Bezeichnung neu angelegt, nichts kopiert</translation>
    </message>
    <message>
        <source>moves up %1</source>
        <translation>rückt %1 nach hinten</translation>
    </message>
    <message>
        <source>moves down %1</source>
        <translation>rückt %1 nach vorn</translation>
    </message>
    <message>
        <source>%1 to move in all; it takes roughly %2 at 100 MiB/s (the drive decides: a USB stick is slower, an SSD faster).</source>
        <translation>Insgesamt %1 zu verschieben; das dauert bei 100 MiB/s etwa %2 (das Laufwerk entscheidet: Ein USB-Stick ist langsamer, eine SSD schneller).</translation>
    </message>
    <message>
        <source>Partition %1 stays where it is: %2.</source>
        <translation>Partition %1 bleibt, wo sie ist: %2.</translation>
    </message>
    <message>
        <source>These partitions are in use and must be unmounted (or swapped off) first:
%1</source>
        <translation>Diese Partitionen werden benutzt und müssen zuerst ausgehängt (oder als Swap deaktiviert) werden:
%1</translation>
    </message>
    <message>
        <source>None of these partitions is mounted or otherwise in use.</source>
        <translation>Keine dieser Partitionen ist eingehängt oder anderweitig in Benutzung.</translation>
    </message>
    <message>
        <source>An interrupted realignment of this disk is recorded in %1: finish it first (close this wizard and open the disk again).</source>
        <translation>Ein unterbrochenes Neuausrichten dieses Datenträgers ist in %1 verzeichnet: Schließen Sie es zuerst ab (diesen Assistenten schließen und den Datenträger erneut öffnen).</translation>
    </message>
    <message>
        <source>1 partition moves to the %1 grain:</source>
        <translation>1 Partition wird auf das Raster von %1 verschoben:</translation>
    </message>
    <message>
        <source>%1 partitions move to the %2 grain, in this order:</source>
        <translation>%1 Partitionen werden in dieser Reihenfolge auf das Raster von %2 verschoben:</translation>
    </message>
    <message>
        <source>Partition %1 stays: an extended partition only holds the logical ones.</source>
        <translation>Partition %1 bleibt: Eine erweiterte Partition enthält nur die logischen.</translation>
    </message>
    <message>
        <source>Partition %1 stays: it already starts on the grain.</source>
        <translation>Partition %1 bleibt: Sie beginnt schon auf dem Raster.</translation>
    </message>
    <message>
        <source>Partition %1 stays: not chosen.</source>
        <translation>Partition %1 bleibt: nicht gewählt.</translation>
    </message>
    <message>
        <source>The journal of this move would be kept in memory (%1, as in a live session): a power cut during the move would lose it, and with it the record of where the data is. Choose a folder for move journals on another disk in Preferences (a USB stick will do), or keep the computer on mains power.</source>
        <translation>Das Journal dieses Verschiebens läge im Arbeitsspeicher (%1, wie in einer Live-Sitzung): Ein Stromausfall während des Verschiebens würde es löschen, und mit ihm die Aufzeichnung, wo die Daten liegen. Wählen Sie in den Einstellungen einen Ordner für Verschiebe-Journale auf einem anderen Datenträger (ein USB-Stick genügt), oder lassen Sie den Rechner am Netzstrom.</translation>
    </message>
    <message>
        <source>The last plan stopped before writing anything: %1 Here is the next plan; check it and start it with Realign.</source>
        <translation>Der letzte Plan hat angehalten, bevor etwas geschrieben wurde: %1 Hier ist der nächste Plan; prüfen Sie ihn und starten Sie ihn mit „Neu ausrichten“.</translation>
    </message>
    <message>
        <source>I will repair booting as shown and accept the &amp;change</source>
        <translation>Ich repariere den Start wie gezeigt und nehme die Ä&amp;nderung hin</translation>
    </message>
    <message>
        <source>Booting: %1</source>
        <translation>Start: %1</translation>
    </message>
    <message>
        <source>This plan stops a boot loader working:
%1</source>
        <translation>Dieser Plan setzt einen Bootloader außer Betrieb:
%1</translation>
    </message>
    <message>
        <source>Planning again with the way you picked…</source>
        <translation>Wird mit dem gewählten Weg neu geplant …</translation>
    </message>
    <message>
        <source>table only</source>
        <translation>nur Tabelle</translation>
    </message>
    <message>
        <source>The blocks its filesystem uses, of %1</source>
        <translation>Die von ihrem Dateisystem belegten Blöcke, von %1</translation>
    </message>
    <message>
        <source>makes room for partition %1</source>
        <translation>macht Platz für Partition %1</translation>
    </message>
    <message>
        <source>shrunk by %1 first</source>
        <translation>zuerst um %1 verkleinert</translation>
    </message>
    <message>
        <source>Its first blocks, now and after the move</source>
        <translation>Ihre ersten Blöcke, jetzt und nach dem Verschieben</translation>
    </message>
    <message>
        <source>Sector ruler where the partition is now</source>
        <translation>Sektorlineal an der jetzigen Stelle der Partition</translation>
    </message>
    <message>
        <source>Sector ruler where the partition will be</source>
        <translation>Sektorlineal an der künftigen Stelle der Partition</translation>
    </message>
    <message>
        <source>Now:</source>
        <translation>Jetzt:</translation>
    </message>
    <message>
        <source>After:</source>
        <translation>Danach:</translation>
    </message>
    <message>
        <source>&amp;Unmount and Continue</source>
        <translation>&amp;Aushängen und fortfahren</translation>
    </message>
    <message>
        <source>Unmount and Continue</source>
        <translation>Aushängen und fortfahren</translation>
    </message>
    <message>
        <source>Reading %1 and planning: finding the blocks partition %2 uses, %3%</source>
        <translation>%1 wird gelesen und geplant: die Blöcke, die Partition %2 belegt, werden gesucht, %3 %</translation>
    </message>
</context>
<context>
    <name>RealignResultPage</name>
    <message>
        <source>&lt;b&gt;Checks&lt;/b&gt;</source>
        <translation>&lt;b&gt;Prüfungen&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Check results</source>
        <translation>Prüfergebnisse</translation>
    </message>
    <message>
        <source>&amp;Resume Now</source>
        <translation>Jetzt &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Realignment finished</source>
        <translation>Neuausrichten abgeschlossen</translation>
    </message>
    <message>
        <source>Realignment stopped</source>
        <translation>Neuausrichten angehalten</translation>
    </message>
    <message>
        <source>&lt;b&gt;Before&lt;/b&gt; (as the interrupted run left it)</source>
        <translation>&lt;b&gt;Vorher&lt;/b&gt; (wie der unterbrochene Lauf ihn hinterließ)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Before&lt;/b&gt;</source>
        <translation>&lt;b&gt;Vorher&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;After&lt;/b&gt;</source>
        <translation>&lt;b&gt;Nachher&lt;/b&gt;</translation>
    </message>
    <message>
        <source>The disk could not be read again.</source>
        <translation>Der Datenträger konnte nicht erneut gelesen werden.</translation>
    </message>
    <message>
        <source>The data was copied, the table updated and each filesystem checked.</source>
        <translation>Die Daten wurden kopiert, die Tabelle aktualisiert und jedes Dateisystem geprüft.</translation>
    </message>
    <message>
        <source>The realignment can be finished.</source>
        <translation>Das Neuausrichten kann abgeschlossen werden.</translation>
    </message>
    <message>
        <source>The realignment failed.</source>
        <translation>Das Neuausrichten ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>No filesystem needed checking.</source>
        <translation>Kein Dateisystem musste geprüft werden.</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>&lt;b&gt;Now&lt;/b&gt;</source>
        <translation>&lt;b&gt;Jetzt&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No partition on %1 is misaligned any more.</source>
        <translation>Keine Partition auf %1 ist mehr falsch ausgerichtet.</translation>
    </message>
    <message>
        <source>1 partition on %1 is still misaligned: it was not chosen or could not move.</source>
        <translation>1 Partition auf %1 ist noch falsch ausgerichtet: Sie war nicht gewählt oder ließ sich nicht verschieben.</translation>
    </message>
    <message>
        <source>%1 partitions on %2 are still misaligned: they were not chosen or could not move.</source>
        <translation>%1 Partitionen auf %2 sind noch falsch ausgerichtet: Sie waren nicht gewählt oder ließen sich nicht verschieben.</translation>
    </message>
    <message>
        <source>You cancelled the realignment. It stopped at a safe point: nothing is lost.</source>
        <translation>Sie haben das Neuausrichten abgebrochen. Es hielt an einer sicheren Stelle an: Nichts ist verloren.</translation>
    </message>
    <message>
        <source>The realignment stopped at a safe point: nothing is lost.</source>
        <translation>Das Neuausrichten hielt an einer sicheren Stelle an: Nichts ist verloren.</translation>
    </message>
    <message>
        <source>Until it is finished, partition %1 should not be used: part of its data may already be at its new place.</source>
        <translation>Bis es abgeschlossen ist, sollte Partition %1 nicht benutzt werden: Ein Teil ihrer Daten kann schon an der neuen Stelle liegen.</translation>
    </message>
    <message>
        <source>Until it is finished, the partition being moved should not be used.</source>
        <translation>Bis es abgeschlossen ist, sollte die gerade verschobene Partition nicht benutzt werden.</translation>
    </message>
    <message>
        <source>No filesystem has been checked yet.</source>
        <translation>Noch wurde kein Dateisystem geprüft.</translation>
    </message>
    <message>
        <source>Finish it now with Resume Now, or later: Partwise offers to finish it whenever this disk is opened. From a terminal:
    %1</source>
        <translation>Schließen Sie es jetzt mit „Jetzt fortsetzen“ ab oder später: Partwise bietet das Abschließen an, sobald dieser Datenträger geöffnet wird. Im Terminal:
    %1</translation>
    </message>
    <message>
        <source>by the helper, in its backup folder</source>
        <translation>vom Helfer in seinem Sicherungsordner</translation>
    </message>
    <message>
        <source>under %1</source>
        <translation>unter %1</translation>
    </message>
    <message>
        <source>The realignment failed, and it cannot simply be resumed. The partition table as it was before is saved %1 (the log on the previous page names the folder); the details say what went wrong.</source>
        <translation>Das Neuausrichten ist fehlgeschlagen und lässt sich nicht einfach fortsetzen. Die bisherige Partitionstabelle ist %1 gesichert (das Protokoll auf der vorigen Seite nennt den Ordner); die Details sagen, was schiefging.</translation>
    </message>
    <message>
        <source>The realignment did not start: nothing on %1 was changed. The details say why; close the wizard and open it again to plan anew.</source>
        <translation>Das Neuausrichten hat nicht begonnen: Auf %1 wurde nichts verändert. Die Details sagen, warum; schließen Sie den Assistenten und öffnen Sie ihn erneut, um neu zu planen.</translation>
    </message>
    <message>
        <source>The realignment did not start.</source>
        <translation>Das Neuausrichten hat nicht begonnen.</translation>
    </message>
</context>
<context>
    <name>RealignRunPage</name>
    <message>
        <source>Realigning</source>
        <translation>Neuausrichten läuft</translation>
    </message>
    <message>
        <source>Realignment log</source>
        <translation>Protokoll des Neuausrichtens</translation>
    </message>
    <message>
        <source>Cancel stops after the chunk being copied; the journal keeps the disk in a state Partwise can finish later.</source>
        <translation>Abbrechen hält nach dem Block an, der gerade kopiert wird; das Journal hält den Datenträger in einem Zustand, den Partwise später abschließen kann.</translation>
    </message>
    <message>
        <source>nothing to copy: swap is recreated</source>
        <translation>nichts zu kopieren: Swap wird neu angelegt</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>done</source>
        <translation>fertig</translation>
    </message>
    <message>
        <source>Finishing the interrupted realignment</source>
        <translation>Unterbrochenes Neuausrichten wird abgeschlossen</translation>
    </message>
    <message>
        <source>Finishing the realignment of %1 recorded in %2…</source>
        <translation>Das in %2 verzeichnete Neuausrichten von %1 wird abgeschlossen …</translation>
    </message>
    <message>
        <source>Plan for %1 (grain %2):</source>
        <translation>Plan für %1 (Raster %2):</translation>
    </message>
    <message>
        <source>verifying</source>
        <translation>wird überprüft</translation>
    </message>
    <message>
        <source>moving</source>
        <translation>wird verschoben</translation>
    </message>
    <message>
        <source>%1: %2 of %3</source>
        <translation>%1: %2 von %3</translation>
    </message>
    <message>
        <source> · %1/s</source>
        <translation> · %1/s</translation>
    </message>
    <message>
        <source> · %1 left</source>
        <translation> · noch %1</translation>
    </message>
    <message>
        <source>not started</source>
        <translation>nicht begonnen</translation>
    </message>
    <message>
        <source>stopped (%1)</source>
        <translation>angehalten (%1)</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>angehalten</translation>
    </message>
    <message>
        <source>Finished. Press Next to see the disk as it is now.</source>
        <translation>Fertig. Klicken Sie auf „Weiter“, um den Datenträger so zu sehen, wie er jetzt ist.</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>Fertig.</translation>
    </message>
    <message>
        <source>Stopped at a safe point; nothing is lost. Press Next for how to finish.</source>
        <translation>An einer sicheren Stelle angehalten; nichts ist verloren. Klicken Sie auf „Weiter“, um zu sehen, wie es sich abschließen lässt.</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Angehalten: %1</translation>
    </message>
    <message>
        <source>Stopping after the current chunk…</source>
        <translation>Wird nach dem aktuellen Block angehalten …</translation>
    </message>
    <message>
        <source>Cancel requested: stopping at the next safe point.</source>
        <translation>Abbruch angefordert: Es wird an der nächsten sicheren Stelle angehalten.</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>&amp;Weiter &gt;</translation>
    </message>
    <message>
        <source>Moving 1 partition on %1.</source>
        <translation>1 Partition auf %1 wird verschoben.</translation>
    </message>
    <message>
        <source>Moving %1 partitions on %2.</source>
        <translation>%1 Partitionen auf %2 werden verschoben.</translation>
    </message>
    <message>
        <source>Keep the computer on; if it stops anyway, Partwise finishes the move when the disk is opened again.</source>
        <translation>Lassen Sie den Rechner eingeschaltet; falls er doch ausgeht, schließt Partwise das Verschieben ab, wenn der Datenträger wieder geöffnet wird.</translation>
    </message>
    <message>
        <source>Verifying partition %1 (%2 of %3)…</source>
        <translation>Partition %1 wird überprüft (%2 von %3) …</translation>
    </message>
    <message>
        <source>Moving partition %1 (%2 of %3)…</source>
        <translation>Partition %1 wird verschoben (%2 von %3) …</translation>
    </message>
</context>
<context>
    <name>RealignWayChooser</name>
    <message>
        <source>Ways to make room</source>
        <translation>Wege, Platz zu schaffen</translation>
    </message>
    <message>
        <source>The place on the grain is taken, so room has to be made. Pick a way: the cheapest is listed first, and the plan below follows your pick.</source>
        <translation>Die Stelle auf dem Raster ist belegt, also muss Platz geschaffen werden. Wählen Sie einen Weg: Der günstigste steht zuerst, und der Plan darunter folgt Ihrer Wahl.</translation>
    </message>
    <message>
        <source>Move it up into the free space after it</source>
        <translation>Sie nach oben in den freien Platz dahinter verschieben</translation>
    </message>
    <message>
        <source>Move it down into the free space before it</source>
        <translation>Sie nach unten in den freien Platz davor verschieben</translation>
    </message>
    <message>
        <source>Shrink its filesystem by %1, then move it up</source>
        <translation>Ihr Dateisystem um %1 verkleinern, dann sie nach oben verschieben</translation>
    </message>
    <message>
        <source>Move partition %1 after it up, then move it up</source>
        <translation>Partition %1 dahinter nach oben verschieben, dann sie nach oben verschieben</translation>
    </message>
    <message>
        <source>Move partitions %1 after it up, then move it up</source>
        <translation>Partitionen %1 dahinter nach oben verschieben, dann sie nach oben verschieben</translation>
    </message>
    <message>
        <source>Move partition %1 before it down, then move it down</source>
        <translation>Partition %1 davor nach unten verschieben, dann sie nach unten verschieben</translation>
    </message>
    <message>
        <source>Move partitions %1 before it down, then move it down</source>
        <translation>Partitionen %1 davor nach unten verschieben, dann sie nach unten verschieben</translation>
    </message>
    <message>
        <source>copies %1</source>
        <translation>kopiert %1</translation>
    </message>
    <message>
        <source>copies nothing</source>
        <translation>kopiert nichts</translation>
    </message>
    <message>
        <source>the %1 filesystem of partition %2 gives up %3 first</source>
        <translation>das %1-Dateisystem von Partition %2 gibt zuerst %3 ab</translation>
    </message>
    <message>
        <source>partition %1 moves too</source>
        <translation>Partition %1 wird mitverschoben</translation>
    </message>
    <message>
        <source>partitions %1 move too</source>
        <translation>Partitionen %1 werden mitverschoben</translation>
    </message>
    <message>
        <source>extended partition %1 is moved in the table with its logical partitions</source>
        <translation>die erweiterte Partition %1 wird mit ihren logischen Partitionen in der Tabelle verschoben</translation>
    </message>
    <message>
        <source>no other partition moves</source>
        <translation>keine andere Partition wird verschoben</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; can be given room in %2 ways:</source>
        <translation>Für &lt;b&gt;%1&lt;/b&gt; lässt sich auf %2 Wegen Platz schaffen:</translation>
    </message>
    <message>
        <source>Move it up into the unused room at its end</source>
        <translation>Nach oben in den ungenutzten Platz an ihrem Ende verschieben</translation>
    </message>
</context>
<context>
    <name>RealignWizard</name>
    <message>
        <source>no filesystem</source>
        <translation>kein Dateisystem</translation>
    </message>
    <message>
        <source>Partition %1 (%2)</source>
        <translation>Partition %1 (%2)</translation>
    </message>
    <message>
        <source>Partition %1 (%2 “%3”)</source>
        <translation>Partition %1 (%2 „%3“)</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>Finish the Realignment — %1</source>
        <translation>Neuausrichten abschließen — %1</translation>
    </message>
    <message>
        <source>Realign Partitions — %1</source>
        <translation>Partitionen neu ausrichten — %1</translation>
    </message>
    <message>
        <source>Partition %1 (extended)</source>
        <translation>Partition %1 (erweitert)</translation>
    </message>
    <message>
        <source>widened first, so its logical partitions can move</source>
        <translation>zuerst vergrößert, damit ihre logischen Partitionen verschoben werden können</translation>
    </message>
    <message>
        <source>moved in the table with its logical partitions</source>
        <translation>mit ihren logischen Partitionen in der Tabelle verschoben</translation>
    </message>
</context>
<context>
    <name>RegionNames</name>
    <message>
        <source>Unallocated</source>
        <translation>Nicht zugewiesen</translation>
    </message>
    <message>
        <source>Partition %1</source>
        <translation>Partition %1</translation>
    </message>
    <message>
        <source>unallocated</source>
        <translation>nicht zugewiesen</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message>
        <source>primary</source>
        <translation>primär</translation>
    </message>
    <message>
        <source>extended</source>
        <translation>erweitert</translation>
    </message>
    <message>
        <source>logical</source>
        <translation>logisch</translation>
    </message>
</context>
<context>
    <name>RemoteMachines</name>
    <message>
        <source>Connect to &amp;Machine…</source>
        <translation>Mit &amp;Rechner verbinden …</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1 …</translation>
    </message>
    <message>
        <source>The helper sent a layout this window cannot use: %1</source>
        <translation>Der Helfer hat ein Layout gesendet, das dieses Fenster nicht verwenden kann: %1</translation>
    </message>
    <message>
        <source>Connection Lost</source>
        <translation>Verbindung verloren</translation>
    </message>
    <message>
        <source>Partwise lost the connection to %1.</source>
        <translation>Partwise hat die Verbindung zu %1 verloren.</translation>
    </message>
    <message>
        <source>Connect &amp;Again</source>
        <translation>&amp;Erneut verbinden</translation>
    </message>
    <message>
        <source>Open This Computer&apos;s &amp;Disks…</source>
        <translation>&amp;Datenträger dieses Computers öffnen …</translation>
    </message>
    <message>
        <source>Asks for an administrator&apos;s password and shows this computer&apos;s disks</source>
        <translation>Fragt nach einem Administratorpasswort und zeigt die Datenträger dieses Computers</translation>
    </message>
    <message>
        <source>Starting the helper for this computer&apos;s disks…</source>
        <translation>Der Helfer für die Datenträger dieses Computers wird gestartet …</translation>
    </message>
    <message>
        <source>The helper sent boot information this window cannot use: %1.</source>
        <translation>Der Helfer hat Startinformationen geschickt, die dieses Fenster nicht verwenden kann: %1.</translation>
    </message>
    <message>
        <source>Helper Not Started</source>
        <translation>Helfer nicht gestartet</translation>
    </message>
    <message>
        <source>Partwise could not start the helper for %1.</source>
        <translation>Partwise konnte den Helfer für %1 nicht starten.</translation>
    </message>
</context>
<context>
    <name>ResizePartitionDialog</name>
    <message>
        <source>Resize/Move Partition %1</source>
        <translation>Partition %1: Größe ändern/verschieben</translation>
    </message>
    <message>
        <source>%1 (the size it has: it cannot shrink here)</source>
        <translation>%1 (ihre jetzige Größe: hier kann sie nicht verkleinert werden)</translation>
    </message>
    <message>
        <source>Not available here: the partition keeps its size and can only move. %1</source>
        <translation>Hier nicht möglich: Die Partition behält ihre Größe und kann nur verschoben werden. %1</translation>
    </message>
    <message>
        <source>Not available here: the partition keeps its size and can only move. %1 %2</source>
        <translation>Hier nicht möglich: Die Partition behält ihre Größe und kann nur verschoben werden. %1 %2</translation>
    </message>
    <message>
        <source>Not available here: shrinking. The partition can grow or move. %1</source>
        <translation>Hier nicht möglich: Verkleinern. Die Partition kann vergrößert oder verschoben werden. %1</translation>
    </message>
    <message>
        <source>Not available here: growing. The partition can shrink or move. %1</source>
        <translation>Hier nicht möglich: Vergrößern. Die Partition kann verkleinert oder verschoben werden. %1</translation>
    </message>
    <message>
        <source>Shrinking is not available here: %1</source>
        <translation>Verkleinern ist hier nicht möglich: %1</translation>
    </message>
    <message>
        <source>Growing is not available here: %1</source>
        <translation>Vergrößern ist hier nicht möglich: %1</translation>
    </message>
    <message>
        <source>unformatted</source>
        <translation>unformatiert</translation>
    </message>
    <message>
        <source>Partition %1 (%2): sectors %3 – %4, %5 (%6-byte sectors)</source>
        <translation>Partition %1 (%2): Sektoren %3 – %4, %5 (Sektoren zu %6 Byte)</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Free space before</source>
        <translation>Freier Platz davor</translation>
    </message>
    <message>
        <source>Changing this moves the start of the partition and all its data.</source>
        <translation>Eine Änderung verschiebt den Anfang der Partition und alle ihre Daten.</translation>
    </message>
    <message>
        <source>New size</source>
        <translation>Neue Größe</translation>
    </message>
    <message>
        <source>Free space after</source>
        <translation>Freier Platz danach</translation>
    </message>
    <message>
        <source>%1 (what the filesystem needs)</source>
        <translation>%1 (was das Dateisystem braucht)</translation>
    </message>
    <message>
        <source>Free space &amp;before:</source>
        <translation>Freier Platz da&amp;vor:</translation>
    </message>
    <message>
        <source>New &amp;size:</source>
        <translation>Neue &amp;Größe:</translation>
    </message>
    <message>
        <source>Minimum size:</source>
        <translation>Mindestgröße:</translation>
    </message>
    <message>
        <source>Moving the start copies all the data of the partition to its new place. The copy is journaled and survives a power cut, but it is slow: back up what matters first.</source>
        <translation>Wird der Anfang verschoben, werden alle Daten der Partition an ihren neuen Platz kopiert. Das Kopieren läuft über ein Journal und übersteht einen Stromausfall, ist aber langsam: Sichern Sie vorher, was Ihnen wichtig ist.</translation>
    </message>
    <message>
        <source>&amp;Add to Queue</source>
        <translation>Zur &amp;Warteschlange hinzufügen</translation>
    </message>
    <message>
        <source>No filesystem was found: only the partition changes.</source>
        <translation>Kein Dateisystem gefunden: Nur die Partition ändert sich.</translation>
    </message>
    <message>
        <source>Swap is created anew at the new size, with its UUID and label.</source>
        <translation>Swap wird in der neuen Größe neu angelegt, mit seiner UUID und Bezeichnung.</translation>
    </message>
    <message>
        <source>The %1 filesystem shrinks before the partition does and grows after it.</source>
        <translation>Das Dateisystem %1 wird vor der Partition verkleinert und nach ihr vergrößert.</translation>
    </message>
    <message>
        <source>Nothing changes yet: choose a new size, or free space before to move the partition.</source>
        <translation>Noch ändert sich nichts: Wählen Sie eine neue Größe oder freien Platz davor, um die Partition zu verschieben.</translation>
    </message>
    <message>
        <source>libparted did not keep the partition.</source>
        <translation>libparted hat die Partition nicht behalten.</translation>
    </message>
    <message>
        <source>Free space before: %1, after: %2</source>
        <translation>Freier Platz davor: %1, danach: %2</translation>
    </message>
    <message>
        <source>The start moves by %1 %2: the data is copied there.</source>
        <translation>Der Anfang verschiebt sich um %1 %2: Die Daten werden dorthin kopiert.</translation>
    </message>
    <message>
        <source>towards the end</source>
        <translation>zum Ende hin</translation>
    </message>
    <message>
        <source>towards the start</source>
        <translation>zum Anfang hin</translation>
    </message>
    <message>
        <source>Free space a&amp;fter:</source>
        <translation>Freier Platz &amp;danach:</translation>
    </message>
    <message>
        <source>That is smaller than the %1 filesystem needs (%2).</source>
        <translation>Das ist kleiner, als das %1-Dateisystem braucht (%2).</translation>
    </message>
    <message>
        <source>measuring… (until then the partition can only grow or move)</source>
        <translation>wird gemessen … (bis dahin kann die Partition nur wachsen oder verschoben werden)</translation>
    </message>
    <message>
        <source>The %1 filesystem shrinks before the partition does. When the partition grows, the filesystem keeps its size: %2.</source>
        <translation>Das Dateisystem %1 wird vor der Partition verkleinert. Wächst die Partition, behält das Dateisystem seine Größe: %2.</translation>
    </message>
    <message>
        <source>The %1 filesystem grows after the partition does.</source>
        <translation>Das Dateisystem %1 wird nach der Partition vergrößert.</translation>
    </message>
    <message>
        <source>When the partition grows, the %1 filesystem keeps its size: %2.</source>
        <translation>Wächst die Partition, behält das Dateisystem %1 seine Größe: %2.</translation>
    </message>
    <message>
        <source>A logical partition needs room for its EBR before it (the sector that links it into the extended partition): %1 on the grain stays free in front of it, so it cannot start right at the free space&apos;s first sector.</source>
        <translation>Eine logische Partition braucht vor sich Platz für ihren EBR (den Sektor, der sie in die erweiterte Partition einhängt): %1 auf dem Raster bleibt vor ihr frei, daher kann sie nicht genau am ersten Sektor des freien Platzes beginnen.</translation>
    </message>
    <message>
        <source>It starts %1 later than the free space before asks: a logical partition&apos;s EBR (the sector that links it into the extended partition) needs the grain in front of it.</source>
        <translation>Sie beginnt %1 später, als der freie Platz davor verlangt: Der EBR einer logischen Partition (der Sektor, der sie in die erweiterte Partition einbindet) braucht das Raster vor ihr.</translation>
    </message>
    <message>
        <source>The LVM physical volume follows the partition through pvresize: before the partition shrinks (only while its logical volumes&apos; extents fit), after it grows.</source>
        <translation>Das physische LVM-Volume folgt der Partition mit pvresize: bevor die Partition schrumpft (nur solange die Extents seiner logischen Volumes hineinpassen), nachdem sie wächst.</translation>
    </message>
</context>
<context>
    <name>RulerCaption</name>
    <message>
        <source>reported</source>
        <translation>gemeldet</translation>
    </message>
    <message>
        <source>assumed</source>
        <translation>angenommen</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>gemessen</translation>
    </message>
    <message>
        <source>physical sector %1</source>
        <translation>physischer Sektor %1</translation>
    </message>
    <message>
        <source>physical sectors %1–%2</source>
        <translation>physische Sektoren %1–%2</translation>
    </message>
    <message>
        <source>Block %1 (bytes %2–%3): %4, %5 in part.</source>
        <translation>Block %1 (Bytes %2–%3): %4, %5 davon nur teilweise.</translation>
    </message>
    <message>
        <source>Block %1 (bytes %2–%3): %4, whole.</source>
        <translation>Block %1 (Bytes %2–%3): %4, vollständig.</translation>
    </message>
    <message>
        <source>The partition starts at byte %1</source>
        <translation>Die Partition beginnt bei Byte %1</translation>
    </message>
    <message>
        <source>The partition ends before byte %1</source>
        <translation>Die Partition endet vor Byte %1</translation>
    </message>
    <message>
        <source>A new partition here would start at byte %1</source>
        <translation>Eine neue Partition würde hier bei Byte %1 beginnen</translation>
    </message>
    <message>
        <source>%1, on a %2-byte physical sector boundary and on the %3 grain.</source>
        <translation>%1, auf einer Grenze physischer Sektoren zu %2 Byte und auf dem Raster von %3.</translation>
    </message>
    <message>
        <source>%1, on a %2-byte physical sector boundary, %3 bytes past a grain boundary.</source>
        <translation>%1, auf einer Grenze physischer Sektoren zu %2 Byte, %3 Byte hinter einer Rastergrenze.</translation>
    </message>
    <message>
        <source>%1, %2 bytes into a %3-byte physical sector.</source>
        <translation>%1, %2 Byte weit in einem physischen Sektor zu %3 Byte.</translation>
    </message>
    <message>
        <source>Every %1 block covers whole physical sectors: the drive writes it without reading first.</source>
        <translation>Jeder Block zu %1 deckt ganze physische Sektoren ab: Das Laufwerk schreibt ihn, ohne vorher zu lesen.</translation>
    </message>
    <message>
        <source>Each %1 block touches %2 physical sectors and covers %3 of them only in part, so one write of it makes the drive read %2 sectors, change them, and write %2.</source>
        <translation>Jeder Block zu %1 berührt %2 physische Sektoren und deckt %3 davon nur teilweise ab. Ein Schreibvorgang lässt das Laufwerk also %2 Sektoren lesen, ändern und %2 schreiben.</translation>
    </message>
    <message>
        <source>Measured on this drive: such writes took %1 times as long.</source>
        <translation>Auf diesem Laufwerk gemessen: Solche Schreibvorgänge dauerten %1-mal so lange.</translation>
    </message>
    <message>
        <source>Not measured on this drive; published benchmarks found such writes 3 to 25 times slower (Drive → Measure Physical Sector… measures it).</source>
        <translation>Auf diesem Laufwerk nicht gemessen; veröffentlichte Messungen fanden solche Schreibvorgänge 3- bis 25-mal langsamer (Laufwerk → Physischen Sektor messen… misst es).</translation>
    </message>
    <message>
        <source>Each %1 block fills only part of one physical sector, so one write of it makes the drive read that sector, change it, and write it back.</source>
        <translation>Jeder Block zu %1 füllt nur einen Teil eines physischen Sektors. Ein Schreibvorgang lässt das Laufwerk also diesen Sektor lesen, ändern und zurückschreiben.</translation>
    </message>
</context>
<context>
    <name>SectorRulerPanel</name>
    <message>
        <source>Sector Ruler</source>
        <translation>Sektorlineal</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>Edge of the partition</source>
        <translation>Rand der Partition</translation>
    </message>
    <message>
        <source>Ed&amp;ge:</source>
        <translation>&amp;Rand:</translation>
    </message>
    <message>
        <source>The filesystem&apos;s block (cluster) size laid over the sectors</source>
        <translation>Die Block- (Cluster-)Größe des Dateisystems, über die Sektoren gelegt</translation>
    </message>
    <message>
        <source>&amp;Block:</source>
        <translation>Bl&amp;ock:</translation>
    </message>
    <message>
        <source>Zoom: bytes shown</source>
        <translation>Zoom: angezeigte Bytes</translation>
    </message>
    <message>
        <source>&amp;Zoom:</source>
        <translation>&amp;Zoom:</translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation>E&amp;xportieren…</translation>
    </message>
    <message>
        <source>Select a partition or free space to see its sectors.</source>
        <translation>Wählen Sie eine Partition oder freien Platz, um die Sektoren zu sehen.</translation>
    </message>
    <message>
        <source>Export Sector Ruler</source>
        <translation>Sektorlineal exportieren</translation>
    </message>
</context>
<context>
    <name>SectorRulerWidget</name>
    <message>
        <source>grain (%1)</source>
        <translation>Raster (%1)</translation>
    </message>
    <message>
        <source>end, byte %1</source>
        <translation>Ende, Byte %1</translation>
    </message>
    <message>
        <source>new start, byte %1</source>
        <translation>neuer Anfang, Byte %1</translation>
    </message>
    <message>
        <source>start, byte %1</source>
        <translation>Anfang, Byte %1</translation>
    </message>
    <message>
        <source>Sector ruler</source>
        <translation>Sektorlineal</translation>
    </message>
    <message>
        <source>Logical (%1)</source>
        <translation>Logisch (%1)</translation>
    </message>
    <message>
        <source>Physical (%1)</source>
        <translation>Physisch (%1)</translation>
    </message>
    <message>
        <source>Physical (%1, %2)</source>
        <translation>Physisch (%1, %2)</translation>
    </message>
    <message>
        <source>Blocks (%1)</source>
        <translation>Blöcke (%1)</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 angezeigt</translation>
    </message>
    <message>
        <source>Partwise sector ruler</source>
        <translation>Partwise-Sektorlineal</translation>
    </message>
    <message>
        <source>start</source>
        <translation>Anfang</translation>
    </message>
    <message>
        <source>end</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>new start</source>
        <translation>neuer Anfang</translation>
    </message>
</context>
<context>
    <name>SshCommand</name>
    <message>
        <source>Type the machine as host or user@host.</source>
        <translation>Geben Sie den Rechner als host oder benutzer@host ein.</translation>
    </message>
    <message>
        <source>A machine&apos;s name cannot start with “-”.</source>
        <translation>Der Name eines Rechners kann nicht mit „-“ beginnen.</translation>
    </message>
    <message>
        <source>“%1” is not a machine name ssh can take: use host or user@host, without spaces or other characters.</source>
        <translation>„%1“ ist kein Rechnername, den ssh annimmt: Verwenden Sie host oder benutzer@host, ohne Leerzeichen oder andere Zeichen.</translation>
    </message>
</context>
<context>
    <name>TableEditor</name>
    <message>
        <source>Cannot open %1.</source>
        <translation>%1 lässt sich nicht öffnen.</translation>
    </message>
    <message>
        <source>Cannot read the partition table of %1.</source>
        <translation>Die Partitionstabelle von %1 lässt sich nicht lesen.</translation>
    </message>
    <message>
        <source>Unknown partition table type &apos;%1&apos; (use gpt or msdos).</source>
        <translation>Unbekannter Partitionstabellentyp „%1“ (gpt oder msdos verwenden).</translation>
    </message>
    <message>
        <source>Cannot create a %1 table.</source>
        <translation>Eine %1-Tabelle lässt sich nicht anlegen.</translation>
    </message>
    <message>
        <source>There is no partition %1.</source>
        <translation>Es gibt keine Partition %1.</translation>
    </message>
    <message>
        <source>Cannot delete partition %1.</source>
        <translation>Partition %1 lässt sich nicht löschen.</translation>
    </message>
    <message>
        <source>The flag &apos;%1&apos; is not available on partition %2 of a %3 table.</source>
        <translation>Die Markierung „%1“ gibt es für Partition %2 einer %3-Tabelle nicht.</translation>
    </message>
    <message>
        <source>There is no free space inside an extended partition for a logical partition.</source>
        <translation>In keiner erweiterten Partition ist Platz für eine logische Partition.</translation>
    </message>
    <message>
        <source>There is no free space for a new partition there.</source>
        <translation>Dort ist kein freier Platz für eine neue Partition.</translation>
    </message>
    <message>
        <source>There is no partition table to write.</source>
        <translation>Es gibt keine Partitionstabelle zum Schreiben.</translation>
    </message>
    <message>
        <source>Writing the partition table of %1 failed.</source>
        <translation>Das Schreiben der Partitionstabelle von %1 ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The partition table of %1 is damaged: libparted stopped reading it on an internal check (%2).</source>
        <translation>Die Partitionstabelle von %1 ist beschädigt: libparted hat das Lesen bei einer internen Prüfung abgebrochen (%2).</translation>
    </message>
    <message>
        <source>Cannot make a copy of the table of %1 to edit.</source>
        <translation>Die Tabelle von %1 kann nicht zum Bearbeiten kopiert werden.</translation>
    </message>
    <message>
        <source>Cannot make a copy of the %1 table of %2 to edit.</source>
        <translation>Die %1-Tabelle von %2 kann nicht zum Bearbeiten kopiert werden.</translation>
    </message>
    <message>
        <source>Cannot copy partition %1 of %2 to edit it.</source>
        <translation>Partition %1 von %2 kann nicht zum Bearbeiten kopiert werden.</translation>
    </message>
    <message>
        <source>Partition %1 of %2, the one to paste, has not been read.</source>
        <translation>Partition %1 von %2, die eingefügt werden soll, wurde nicht gelesen.</translation>
    </message>
    <message>
        <source>Partition %1, the one to paste, is deleted or moved by an operation before the paste.</source>
        <translation>Partition %1, die eingefügt werden soll, wird von einer Operation vor dem Einfügen gelöscht oder verschoben.</translation>
    </message>
    <message>
        <source>Partition %1 holds no filesystem to give a new UUID.</source>
        <translation>Partition %1 enthält kein Dateisystem, das eine neue UUID bekommen könnte.</translation>
    </message>
    <message>
        <source>Partwise cannot give a %1 filesystem a new UUID (it can for ext2, ext3, ext4, XFS, btrfs, FAT, exFAT, NTFS and swap).</source>
        <translation>Partwise kann einem %1-Dateisystem keine neue UUID geben (nur ext2, ext3, ext4, XFS, btrfs, FAT, exFAT, NTFS und Swap).</translation>
    </message>
    <message>
        <source>%1 tables have no partition GUIDs; only GPT partitions have one.</source>
        <translation>%1-Tabellen haben keine Partitions-GUIDs; nur GPT-Partitionen haben eine.</translation>
    </message>
    <message>
        <source>The free space there is too small for the %1 filesystem of partition %2 (%3).</source>
        <translation>Der freie Bereich dort ist zu klein für das Dateisystem %1 von Partition %2 (%3).</translation>
    </message>
    <message>
        <source>the %1 filesystem of partition %2 fills that much, and %1 cannot be shrunk.</source>
        <translation>so viel füllt das Dateisystem %1 von Partition %2, und %1 kann nicht verkleinert werden.</translation>
    </message>
    <message>
        <source>the %1 filesystem of partition %2 fills that much, and how far it could shrink is not known.</source>
        <translation>so viel füllt das Dateisystem %1 von Partition %2, und wie weit es sich verkleinern ließe, ist nicht bekannt.</translation>
    </message>
    <message>
        <source>the %1 filesystem of partition %2 shrinks no further than that (the minimum its own tool reports).</source>
        <translation>weiter lässt sich das Dateisystem %1 von Partition %2 nicht verkleinern (das Minimum, das sein eigenes Werkzeug angibt).</translation>
    </message>
    <message>
        <source>The pasted partition must hold at least %1: %2</source>
        <translation>Die eingefügte Partition muss mindestens %1 fassen: %2</translation>
    </message>
    <message>
        <source>The partition table cannot take a partition at sectors %1–%2.</source>
        <translation>Die Partitionstabelle kann keine Partition in den Sektoren %1–%2 aufnehmen.</translation>
    </message>
    <message>
        <source>libparted, which edits the table, said: %1</source>
        <translation>libparted, das die Tabelle bearbeitet, meldete: %1</translation>
    </message>
    <message>
        <source>Cannot give partition %1 the type of %2.</source>
        <translation>Partition %1 kann nicht den Typ von %2 bekommen.</translation>
    </message>
</context>
<context>
    <name>UdisksClient</name>
    <message>
        <source>There is no D-Bus system bus.</source>
        <translation>Es gibt keinen D-Bus-Systembus.</translation>
    </message>
    <message>
        <source>udisks2 does not know %1.</source>
        <translation>udisks2 kennt %1 nicht.</translation>
    </message>
    <message>
        <source>udisks2 knows no drive behind it.</source>
        <translation>udisks2 kennt kein Laufwerk dahinter.</translation>
    </message>
</context>
<context>
    <name>UdisksRoute</name>
    <message>
        <source>udisks2 could not do it: %1</source>
        <translation>udisks2 konnte es nicht tun: %1</translation>
    </message>
</context>
<context>
    <name>VolumeGroupActions</name>
    <message>
        <source>Acti&amp;vate Volume Group</source>
        <translation>Volumegruppe akti&amp;vieren</translation>
    </message>
    <message>
        <source>Activate the LVM volume group of the selected physical volume</source>
        <translation>Die LVM-Volumegruppe des gewählten physischen Volumes aktivieren</translation>
    </message>
    <message>
        <source>Deactivate Volume &amp;Group</source>
        <translation>Volumegruppe deaktivie&amp;ren</translation>
    </message>
    <message>
        <source>Deactivate the LVM volume group of the selected physical volume</source>
        <translation>Die LVM-Volumegruppe des gewählten physischen Volumes deaktivieren</translation>
    </message>
    <message>
        <source>Select an LVM physical volume.</source>
        <translation>Wählen Sie ein physisches LVM-Volume.</translation>
    </message>
    <message>
        <source>This physical volume belongs to no volume group.</source>
        <translation>Dieses physische Volume gehört zu keiner Volumegruppe.</translation>
    </message>
    <message>
        <source>pvs could not read this physical volume: %1</source>
        <translation>pvs konnte dieses physische Volume nicht lesen: %1</translation>
    </message>
    <message>
        <source>The volume group %1 is active.</source>
        <translation>Die Volumegruppe %1 ist aktiv.</translation>
    </message>
    <message>
        <source>The volume group %1 is not active.</source>
        <translation>Die Volumegruppe %1 ist nicht aktiv.</translation>
    </message>
    <message>
        <source>Goes through the administrator&apos;s helper (vgchange, as root).</source>
        <translation>Läuft über den Helfer des Administrators (vgchange, als root).</translation>
    </message>
    <message>
        <source>Runs in this window, which runs as root (vgchange).</source>
        <translation>Läuft in diesem Fenster, das als root läuft (vgchange).</translation>
    </message>
    <message>
        <source>Partwise</source>
        <translation>Partwise</translation>
    </message>
    <message>
        <source>Deactivated the volume group %1.</source>
        <translation>Die Volumegruppe %1 wurde deaktiviert.</translation>
    </message>
    <message>
        <source>Activated the volume group %1; it has no logical volumes.</source>
        <translation>Die Volumegruppe %1 wurde aktiviert; sie hat keine logischen Volumes.</translation>
    </message>
    <message>
        <source>Activated the volume group %1: %2.</source>
        <translation>Die Volumegruppe %1 wurde aktiviert: %2.</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Create a demo disk image with misaligned partitions in a temporary folder and open it.</source>
        <translation>Ein Demo-Datenträgerabbild mit falsch ausgerichteten Partitionen in einem temporären Ordner erstellen und öffnen.</translation>
    </message>
    <message>
        <source>Read the images with this logical sector size (512, 1024, 2048 or 4096).</source>
        <translation>Die Abbilder mit dieser logischen Sektorgröße lesen (512, 1024, 2048 oder 4096).</translation>
    </message>
    <message>
        <source>Partition editor that gets alignment right.</source>
        <translation>Partitionseditor, der die Ausrichtung richtig macht.</translation>
    </message>
    <message>
        <source>Disk images to open.</source>
        <translation>Zu öffnende Datenträgerabbilder.</translation>
    </message>
    <message>
        <source>--sector-size must be %1.</source>
        <translation>--sector-size muss %1 sein.</translation>
    </message>
    <message>
        <source>New disks show after View → Refresh: %1</source>
        <translation>Neue Datenträger erscheinen nach Ansicht → Aktualisieren: %1</translation>
    </message>
</context>
</TS>
