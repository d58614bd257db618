/*
 * Switching the calling thread to the "C" numeric locale around file reading and writing, so
 * strtod and printf use '.' whatever locale the application chose. Per thread (uselocale), so
 * other threads are not affected.
 */
#ifndef MAGNUS_TEXT_LOCALE_H
#define MAGNUS_TEXT_LOCALE_H

#include <locale.h>

typedef struct magnus_text_locale {
    locale_t previous; /* (locale_t)0 when nothing was switched */
} magnus_text_locale;

/* Switches this thread to the C locale; returns what magnus_text_locale_leave restores. */
magnus_text_locale magnus_text_locale_enter(void);
void magnus_text_locale_leave(magnus_text_locale saved);

#endif
