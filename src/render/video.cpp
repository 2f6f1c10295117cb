#include "render/video.h"

#if FIRN_VIDEO
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace firn::render {
namespace {

std::string av_message(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw std::runtime_error("video " + path.string() + ": " + what);
}

void check(int code, const std::filesystem::path& path, const char* call) {
  if (code < 0) fail(path, std::string(call) + " failed: " + av_message(code));
}

}  // namespace

bool video_available() { return true; }

struct VideoWriter::Impl {
  std::filesystem::path path, temp;
  int width = 0, height = 0;            // input frames [pixels]
  int enc_width = 0, enc_height = 0;    // even, as 4:2:0 needs
  int frames = 0;
  bool finished = false;
  AVFormatContext* format = nullptr;
  AVCodecContext* codec = nullptr;
  AVStream* stream = nullptr;
  AVFrame* frame = nullptr;
  AVPacket* packet = nullptr;
  SwsContext* sws = nullptr;
  std::vector<uint8_t> padded;          // the input with the odd column/row repeated

  ~Impl() {
    sws_freeContext(sws);
    av_packet_free(&packet);
    av_frame_free(&frame);
    avcodec_free_context(&codec);
    if (format) {
      if (format->pb) avio_closep(&format->pb);
      avformat_free_context(format);
    }
    if (!finished && !temp.empty()) {
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
    }
  }

  // Sends `f` (null: flush) to the encoder and writes every packet it has ready.
  void encode(AVFrame* f) {
    check(avcodec_send_frame(codec, f), path, "avcodec_send_frame");
    for (;;) {
      const int r = avcodec_receive_packet(codec, packet);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
      check(r, path, "avcodec_receive_packet");
      av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
      packet->stream_index = stream->index;
      check(av_interleaved_write_frame(format, packet), path, "av_interleaved_write_frame");
    }
  }
};

VideoWriter::VideoWriter(const std::filesystem::path& path, int width, int height, double fps)
    : impl_(std::make_unique<Impl>()) {
  Impl& v = *impl_;
  v.path = path;
  if (width < 2 || height < 2) fail(path, "frame size " + std::to_string(width) + "x" + std::to_string(height) +
                                              "; allowed: at least 2 x 2 pixels");
  if (!(fps > 0)) fail(path, "frame rate " + std::to_string(fps) + "; allowed: > 0 frames per second");
  v.width = width;
  v.height = height;
  v.enc_width = width + (width & 1);
  v.enc_height = height + (height & 1);
  v.temp = path;
  v.temp += ".tmp";

  // libx264 logs its settings and statistics at info level (about 20 lines per video); every failure that matters
  // comes back as a return code and is reported by check(), so only FFmpeg's own errors are printed.
  av_log_set_level(AV_LOG_ERROR);
  const AVCodec* h264 = avcodec_find_encoder(AV_CODEC_ID_H264);
  if (!h264) fail(path, "FFmpeg has no H.264 encoder (Debian's libavcodec59 ships libx264)");
  check(avformat_alloc_output_context2(&v.format, nullptr, "mp4", v.temp.c_str()), path,
        "avformat_alloc_output_context2");
  v.stream = avformat_new_stream(v.format, nullptr);
  v.codec = avcodec_alloc_context3(h264);
  v.frame = av_frame_alloc();
  v.packet = av_packet_alloc();
  if (!v.stream || !v.codec || !v.frame || !v.packet) fail(path, "out of memory");

  // One tick per output frame: frame k has pts k. av_d2q keeps a rate such as 29.97 exact as 30000/1001.
  const AVRational rate = av_d2q(fps, 100000);
  v.codec->width = v.enc_width;
  v.codec->height = v.enc_height;
  v.codec->pix_fmt = AV_PIX_FMT_YUV420P;
  v.codec->time_base = av_inv_q(rate);
  v.codec->framerate = rate;
  v.codec->gop_size = 30;
  if (v.format->oformat->flags & AVFMT_GLOBALHEADER) v.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  // Visually lossless for particle images at a moderate encoding cost (libx264 options; ignored by others).
  av_opt_set(v.codec->priv_data, "crf", "18", 0);
  av_opt_set(v.codec->priv_data, "preset", "veryfast", 0);
  check(avcodec_open2(v.codec, h264, nullptr), path, "avcodec_open2");
  check(avcodec_parameters_from_context(v.stream->codecpar, v.codec), path, "avcodec_parameters_from_context");
  v.stream->time_base = v.codec->time_base;
  v.stream->avg_frame_rate = rate;

  v.frame->format = v.codec->pix_fmt;
  v.frame->width = v.enc_width;
  v.frame->height = v.enc_height;
  check(av_frame_get_buffer(v.frame, 0), path, "av_frame_get_buffer");
  v.sws = sws_getContext(v.enc_width, v.enc_height, AV_PIX_FMT_RGBA, v.enc_width, v.enc_height, AV_PIX_FMT_YUV420P,
                         SWS_BILINEAR, nullptr, nullptr, nullptr);
  if (!v.sws) fail(path, "sws_getContext failed");

  check(avio_open(&v.format->pb, v.temp.c_str(), AVIO_FLAG_WRITE), path, "creating the file");
  check(avformat_write_header(v.format, nullptr), path, "avformat_write_header");
}

VideoWriter::~VideoWriter() = default;
VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;

void VideoWriter::write(std::span<const uint8_t> rgba) {
  Impl& v = *impl_;
  if (v.finished) fail(v.path, "write after finish");
  const size_t row = static_cast<size_t>(v.width) * 4, enc_row = static_cast<size_t>(v.enc_width) * 4;
  if (rgba.size() != row * static_cast<size_t>(v.height))
    fail(v.path, "frame of " + std::to_string(rgba.size()) + " bytes; expected " + std::to_string(v.width) + " x " +
                     std::to_string(v.height) + " x 4");
  const uint8_t* source = rgba.data();
  size_t stride = row;
  if (v.enc_width != v.width || v.enc_height != v.height) {
    v.padded.resize(enc_row * static_cast<size_t>(v.enc_height));
    for (int y = 0; y < v.enc_height; ++y) {
      uint8_t* out = &v.padded[static_cast<size_t>(y) * enc_row];
      std::memcpy(out, &rgba[static_cast<size_t>(std::min(y, v.height - 1)) * row], row);
      if (v.enc_width != v.width) std::memcpy(out + row, out + row - 4, 4);
    }
    source = v.padded.data();
    stride = enc_row;
  }
  check(av_frame_make_writable(v.frame), v.path, "av_frame_make_writable");
  const uint8_t* planes[1] = {source};
  const int strides[1] = {static_cast<int>(stride)};
  sws_scale(v.sws, planes, strides, 0, v.enc_height, v.frame->data, v.frame->linesize);
  v.frame->pts = v.frames;
  v.encode(v.frame);
  ++v.frames;
}

void VideoWriter::finish() {
  Impl& v = *impl_;
  if (v.finished) return;
  v.encode(nullptr);
  check(av_write_trailer(v.format), v.path, "av_write_trailer");
  check(avio_closep(&v.format->pb), v.path, "closing the file");
  std::error_code e;
  std::filesystem::rename(v.temp, v.path, e);
  if (e) fail(v.path, "renaming " + v.temp.string() + ": " + e.message());
  v.finished = true;
}

int VideoWriter::frames() const { return impl_->frames; }
int VideoWriter::encoded_width() const { return impl_->enc_width; }
int VideoWriter::encoded_height() const { return impl_->enc_height; }
const std::filesystem::path& VideoWriter::path() const { return impl_->path; }

VideoInfo read_video_info(const std::filesystem::path& path) {
  AVFormatContext* format = nullptr;
  check(avformat_open_input(&format, path.c_str(), nullptr, nullptr), path, "avformat_open_input");
  struct Closer {
    AVFormatContext** f;
    AVCodecContext* c = nullptr;
    AVPacket* p = av_packet_alloc();
    AVFrame* fr = av_frame_alloc();
    ~Closer() {
      av_frame_free(&fr);
      av_packet_free(&p);
      avcodec_free_context(&c);
      avformat_close_input(f);
    }
  } closer{&format};
  check(avformat_find_stream_info(format, nullptr), path, "avformat_find_stream_info");
  const AVCodec* decoder = nullptr;
  const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  check(index, path, "av_find_best_stream");
  const AVStream* stream = format->streams[index];
  closer.c = avcodec_alloc_context3(decoder);
  check(avcodec_parameters_to_context(closer.c, stream->codecpar), path, "avcodec_parameters_to_context");
  check(avcodec_open2(closer.c, decoder, nullptr), path, "avcodec_open2");

  VideoInfo info;
  info.width = stream->codecpar->width;
  info.height = stream->codecpar->height;
  info.codec = decoder->name;
  info.fps = av_q2d(stream->avg_frame_rate);
  int64_t first = INT64_MAX, last_end = 0;
  auto drain = [&] {
    for (;;) {
      const int r = avcodec_receive_frame(closer.c, closer.fr);
      if (r == AVERROR(EAGAIN) || r == AVERROR_EOF) return;
      check(r, path, "avcodec_receive_frame");
      ++info.frames;
      first = std::min(first, closer.fr->best_effort_timestamp);
      last_end = std::max(last_end, closer.fr->best_effort_timestamp + closer.fr->pkt_duration);
    }
  };
  while (av_read_frame(format, closer.p) >= 0) {
    if (closer.p->stream_index == index) check(avcodec_send_packet(closer.c, closer.p), path, "avcodec_send_packet");
    av_packet_unref(closer.p);
    drain();
  }
  check(avcodec_send_packet(closer.c, nullptr), path, "avcodec_send_packet");
  drain();
  if (info.frames > 0) info.duration = static_cast<double>(last_end - first) * av_q2d(stream->time_base);
  return info;
}

}  // namespace firn::render
#else  // built without FFmpeg (FIRN_VIDEO=OFF): every use says so

#include <stdexcept>
#include <string>

namespace firn::render {
namespace {

[[noreturn]] void unavailable(const std::filesystem::path& path) {
  throw std::runtime_error("video " + path.string() + ": this firn was built without video output (CMake option "
                           "FIRN_VIDEO=OFF)");
}

}  // namespace

bool video_available() { return false; }

struct VideoWriter::Impl {
  std::filesystem::path path;
};

VideoWriter::VideoWriter(const std::filesystem::path& path, int, int, double) { unavailable(path); }
VideoWriter::~VideoWriter() = default;
VideoWriter::VideoWriter(VideoWriter&&) noexcept = default;
VideoWriter& VideoWriter::operator=(VideoWriter&&) noexcept = default;
void VideoWriter::write(std::span<const uint8_t>) { unavailable(impl_->path); }
void VideoWriter::finish() { unavailable(impl_->path); }
int VideoWriter::frames() const { return 0; }
int VideoWriter::encoded_width() const { return 0; }
int VideoWriter::encoded_height() const { return 0; }
const std::filesystem::path& VideoWriter::path() const { return impl_->path; }
VideoInfo read_video_info(const std::filesystem::path& path) { unavailable(path); }

}  // namespace firn::render
#endif
