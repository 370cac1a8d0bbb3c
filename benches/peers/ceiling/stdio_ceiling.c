/* stdio-ceiling: the stdio ceiling of the SDK benchmark. It answers every request line with
 * a fixed JSON-RPC result, copying only the request's id and, for echo calls, the raw
 * (still JSON-escaped) text argument, so the driver measures what the pipes and the driver
 * itself allow, and the 1 MiB echo has a ceiling too. Lines without an id (notifications)
 * get no answer. All complete lines of one read are answered with one write. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *out;
static size_t out_len, out_cap;

static void put(const char *bytes, size_t n) {
    if (out_len + n > out_cap) {
        out_cap = (out_len + n) * 2;
        out = realloc(out, out_cap);
        if (!out) exit(1);
    }
    memcpy(out + out_len, bytes, n);
    out_len += n;
}

static void answer(const char *line, size_t n) {
    const char *id = memmem(line, n, "\"id\":", 5);
    if (!id) return;
    id += 5;
    size_t id_len = 0;
    while (id + id_len < line + n && id[id_len] >= '0' && id[id_len] <= '9') id_len++;
    put("{\"jsonrpc\":\"2.0\",\"id\":", 22);
    put(id, id_len);
    const char *text = memmem(line, n, "\"text\":\"", 8);
    if (!text) {
        put(",\"result\":{}}\n", 14);
        return;
    }
    text += 8;
    const char *end = text;
    for (;;) {
        end = memchr(end, '"', (size_t)(line + n - end));
        if (!end) {
            put(",\"result\":{}}\n", 14);
            return;
        }
        size_t slashes = 0;
        while (end - slashes > text && end[-1 - (long)slashes] == '\\') slashes++;
        if (slashes % 2 == 0) break;
        end++;
    }
    put(",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"", 45);
    put(text, (size_t)(end - text));
    put("\"}]}}\n", 6);
}

static void write_all(void) {
    size_t done = 0;
    while (done < out_len) {
        ssize_t n = write(1, out + done, out_len - done);
        if (n <= 0) exit(1);
        done += (size_t)n;
    }
    out_len = 0;
}

int main(void) {
    size_t cap = 1 << 16, len = 0, scanned = 0;
    char *in = malloc(cap);
    for (;;) {
        if (len == cap) in = realloc(in, cap *= 2);
        ssize_t n = read(0, in + len, cap - len);
        if (n <= 0) return 0;
        len += (size_t)n;
        size_t start = 0;
        char *nl;
        while ((nl = memchr(in + scanned, '\n', len - scanned))) {
            answer(in + start, (size_t)(nl - (in + start)));
            start = scanned = (size_t)(nl - in) + 1;
        }
        memmove(in, in + start, len - start);
        len -= start;
        scanned = len;
        if (out_len) write_all();
    }
}
