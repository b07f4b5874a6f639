use crate::*;

pub use decoder::OrderDecoder;
pub use encoder::OrderEncoder;

pub use crate::SBE_SCHEMA_ID;
pub use crate::SBE_SCHEMA_VERSION;
pub use crate::SBE_SEMANTIC_VERSION;

pub const SBE_BLOCK_LENGTH: u16 = 184;
pub const SBE_TEMPLATE_ID: u16 = 1;

pub mod encoder {
    use super::*;
    use message_header_codec::*;

    #[derive(Debug, Default)]
    pub struct OrderEncoder<'a> {
        buf: WriteBuf<'a>,
        initial_offset: usize,
        offset: usize,
        limit: usize,
    }

    impl<'a> Writer<'a> for OrderEncoder<'a> {
        #[inline]
        fn get_buf_mut(&mut self) -> &mut WriteBuf<'a> {
            &mut self.buf
        }
    }

    impl<'a> Encoder<'a> for OrderEncoder<'a> {
        #[inline]
        fn get_limit(&self) -> usize {
            self.limit
        }

        #[inline]
        fn set_limit(&mut self, limit: usize) {
            self.limit = limit;
        }
    }

    impl<'a> OrderEncoder<'a> {
        pub fn wrap(mut self, buf: WriteBuf<'a>, offset: usize) -> Self {
            let limit = offset + SBE_BLOCK_LENGTH as usize;
            self.buf = buf;
            self.initial_offset = offset;
            self.offset = offset;
            self.limit = limit;
            self
        }

        #[inline]
        pub const fn encoded_length(&self) -> usize {
            self.limit - self.offset
        }

        pub fn header(self, offset: usize) -> MessageHeaderEncoder<Self> {
            let mut header = MessageHeaderEncoder::default().wrap(self, offset);
            header.block_length(SBE_BLOCK_LENGTH);
            header.template_id(SBE_TEMPLATE_ID);
            header.schema_id(SBE_SCHEMA_ID);
            header.version(SBE_SCHEMA_VERSION);
            header
        }

        /// primitive field 'sourceId'
        /// - min value: -9223372036854775807
        /// - max value: 9223372036854775807
        /// - null value: -9223372036854775808_i64
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 0
        /// - encodedLength: 8
        /// - version: 0
        #[inline]
        pub fn source_id(&mut self, value: i64) -> &mut Self {
            let offset = self.offset;
            self.get_buf_mut().put_i64_at(offset, value);
            self
        }

        /// primitive field 'orderCode'
        /// - min value: -2147483647
        /// - max value: 2147483647
        /// - null value: -2147483648_i32
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 8
        /// - encodedLength: 4
        /// - version: 0
        #[inline]
        pub fn order_code(&mut self, value: i32) -> &mut Self {
            let offset = self.offset + 8;
            self.get_buf_mut().put_i32_at(offset, value);
            self
        }

        /// primitive field 'priority'
        /// - min value: -2147483647
        /// - max value: 2147483647
        /// - null value: -2147483648_i32
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 12
        /// - encodedLength: 4
        /// - version: 0
        #[inline]
        pub fn priority(&mut self, value: i32) -> &mut Self {
            let offset = self.offset + 12;
            self.get_buf_mut().put_i32_at(offset, value);
            self
        }

        /// REQUIRED enum
        #[inline]
        pub fn special(&mut self, value: boolean_type::BooleanType) -> &mut Self {
            let offset = self.offset + 16;
            self.get_buf_mut().put_u8_at(offset, value as u8);
            self
        }

        #[inline]
        pub fn prices_at(&mut self, index: usize, value: f64) -> &mut Self {
            let offset = self.offset + 24;
            let buf = self.get_buf_mut();
            buf.put_f64_at(offset + index * 8, value);
            self
        }

        /// primitive array field 'prices'
        /// - min value: -1.7976931348623157E308
        /// - max value: 1.7976931348623157E308
        /// - null value: f64::NAN
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 24
        /// - encodedLength: 80
        /// - version: 0
        #[inline]
        pub fn prices(&mut self, value: &[f64]) -> &mut Self {
            debug_assert_eq!(10, value.len());
            let offset = self.offset + 24;
            let buf = self.get_buf_mut();
            buf.put_f64_at(offset, value[0]);
            buf.put_f64_at(offset + 8, value[1]);
            buf.put_f64_at(offset + 16, value[2]);
            buf.put_f64_at(offset + 24, value[3]);
            buf.put_f64_at(offset + 32, value[4]);
            buf.put_f64_at(offset + 40, value[5]);
            buf.put_f64_at(offset + 48, value[6]);
            buf.put_f64_at(offset + 56, value[7]);
            buf.put_f64_at(offset + 64, value[8]);
            buf.put_f64_at(offset + 72, value[9]);
            self
        }

        /// primitive array field 'prices' from an Iterator
        /// - min value: -1.7976931348623157E308
        /// - max value: 1.7976931348623157E308
        /// - null value: f64::NAN
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 24
        /// - encodedLength: 80
        /// - version: 0
        #[inline]
        pub fn prices_from_iter(&mut self, iter: impl Iterator<Item = f64>) -> &mut Self {
            let offset = self.offset + 24;
            let buf = self.get_buf_mut();
            for (i, v) in iter.enumerate() {
                buf.put_f64_at(offset + i * 8, v);
            }
            self
        }

        /// primitive array field 'prices' with zero padding
        /// - min value: -1.7976931348623157E308
        /// - max value: 1.7976931348623157E308
        /// - null value: f64::NAN
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 24
        /// - encodedLength: 80
        /// - version: 0
        #[inline]
        pub fn prices_zero_padded(&mut self, value: &[f64]) -> &mut Self {
            let iter = value
                .iter()
                .copied()
                .chain(std::iter::repeat(0_f64))
                .take(10);
            self.prices_from_iter(iter);
            self
        }

        #[inline]
        pub fn quantities_at(&mut self, index: usize, value: i64) -> &mut Self {
            let offset = self.offset + 104;
            let buf = self.get_buf_mut();
            buf.put_i64_at(offset + index * 8, value);
            self
        }

        /// primitive array field 'quantities'
        /// - min value: -9223372036854775807
        /// - max value: 9223372036854775807
        /// - null value: -9223372036854775808_i64
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 104
        /// - encodedLength: 80
        /// - version: 0
        #[inline]
        pub fn quantities(&mut self, value: &[i64]) -> &mut Self {
            debug_assert_eq!(10, value.len());
            let offset = self.offset + 104;
            let buf = self.get_buf_mut();
            buf.put_i64_at(offset, value[0]);
            buf.put_i64_at(offset + 8, value[1]);
            buf.put_i64_at(offset + 16, value[2]);
            buf.put_i64_at(offset + 24, value[3]);
            buf.put_i64_at(offset + 32, value[4]);
            buf.put_i64_at(offset + 40, value[5]);
            buf.put_i64_at(offset + 48, value[6]);
            buf.put_i64_at(offset + 56, value[7]);
            buf.put_i64_at(offset + 64, value[8]);
            buf.put_i64_at(offset + 72, value[9]);
            self
        }

        /// primitive array field 'quantities' from an Iterator
        /// - min value: -9223372036854775807
        /// - max value: 9223372036854775807
        /// - null value: -9223372036854775808_i64
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 104
        /// - encodedLength: 80
        /// - version: 0
        #[inline]
        pub fn quantities_from_iter(&mut self, iter: impl Iterator<Item = i64>) -> &mut Self {
            let offset = self.offset + 104;
            let buf = self.get_buf_mut();
            for (i, v) in iter.enumerate() {
                buf.put_i64_at(offset + i * 8, v);
            }
            self
        }

        /// primitive array field 'quantities' with zero padding
        /// - min value: -9223372036854775807
        /// - max value: 9223372036854775807
        /// - null value: -9223372036854775808_i64
        /// - characterEncoding: null
        /// - semanticType: null
        /// - encodedOffset: 104
        /// - encodedLength: 80
        /// - version: 0
        #[inline]
        pub fn quantities_zero_padded(&mut self, value: &[i64]) -> &mut Self {
            let iter = value
                .iter()
                .copied()
                .chain(std::iter::repeat(0_i64))
                .take(10);
            self.quantities_from_iter(iter);
            self
        }
    }
} // end encoder

pub mod decoder {
    use super::*;
    use message_header_codec::*;

    #[derive(Clone, Copy, Debug, Default)]
    pub struct OrderDecoder<'a> {
        buf: ReadBuf<'a>,
        initial_offset: usize,
        offset: usize,
        limit: usize,
        pub acting_block_length: u16,
        pub acting_version: u16,
    }

    impl ActingVersion for OrderDecoder<'_> {
        #[inline]
        fn acting_version(&self) -> u16 {
            self.acting_version
        }
    }

    impl<'a> Reader<'a> for OrderDecoder<'a> {
        #[inline]
        fn get_buf(&self) -> &ReadBuf<'a> {
            &self.buf
        }
    }

    impl<'a> Decoder<'a> for OrderDecoder<'a> {
        #[inline]
        fn get_limit(&self) -> usize {
            self.limit
        }

        #[inline]
        fn set_limit(&mut self, limit: usize) {
            self.limit = limit;
        }
    }

    impl<'a> OrderDecoder<'a> {
        pub fn wrap(
            mut self,
            buf: ReadBuf<'a>,
            offset: usize,
            acting_block_length: u16,
            acting_version: u16,
        ) -> Self {
            let limit = offset + acting_block_length as usize;
            self.buf = buf;
            self.initial_offset = offset;
            self.offset = offset;
            self.limit = limit;
            self.acting_block_length = acting_block_length;
            self.acting_version = acting_version;
            self
        }

        #[inline]
        pub const fn encoded_length(&self) -> usize {
            self.limit - self.offset
        }

        pub fn header(self, mut header: MessageHeaderDecoder<ReadBuf<'a>>, offset: usize) -> Self {
            debug_assert_eq!(SBE_TEMPLATE_ID, header.template_id());
            let acting_block_length = header.block_length();
            let acting_version = header.version();

            self.wrap(
                header.parent().unwrap(),
                offset + message_header_codec::ENCODED_LENGTH,
                acting_block_length,
                acting_version,
            )
        }

        /// primitive field - 'REQUIRED'
        #[inline]
        pub fn source_id(&self) -> i64 {
            self.get_buf().get_i64_at(self.offset)
        }

        /// primitive field - 'REQUIRED'
        #[inline]
        pub fn order_code(&self) -> i32 {
            self.get_buf().get_i32_at(self.offset + 8)
        }

        /// primitive field - 'REQUIRED'
        #[inline]
        pub fn priority(&self) -> i32 {
            self.get_buf().get_i32_at(self.offset + 12)
        }

        /// REQUIRED enum
        #[inline]
        pub fn special(&self) -> boolean_type::BooleanType {
            self.get_buf().get_u8_at(self.offset + 16).into()
        }

        #[inline]
        pub fn prices(&self) -> [f64; 10] {
            let buf = self.get_buf();
            [
                buf.get_f64_at(self.offset + 24),
                buf.get_f64_at(self.offset + 24 + 8),
                buf.get_f64_at(self.offset + 24 + 16),
                buf.get_f64_at(self.offset + 24 + 24),
                buf.get_f64_at(self.offset + 24 + 32),
                buf.get_f64_at(self.offset + 24 + 40),
                buf.get_f64_at(self.offset + 24 + 48),
                buf.get_f64_at(self.offset + 24 + 56),
                buf.get_f64_at(self.offset + 24 + 64),
                buf.get_f64_at(self.offset + 24 + 72),
            ]
        }

        #[inline]
        pub fn quantities(&self) -> [i64; 10] {
            let buf = self.get_buf();
            [
                buf.get_i64_at(self.offset + 104),
                buf.get_i64_at(self.offset + 104 + 8),
                buf.get_i64_at(self.offset + 104 + 16),
                buf.get_i64_at(self.offset + 104 + 24),
                buf.get_i64_at(self.offset + 104 + 32),
                buf.get_i64_at(self.offset + 104 + 40),
                buf.get_i64_at(self.offset + 104 + 48),
                buf.get_i64_at(self.offset + 104 + 56),
                buf.get_i64_at(self.offset + 104 + 64),
                buf.get_i64_at(self.offset + 104 + 72),
            ]
        }
    }
} // end decoder
