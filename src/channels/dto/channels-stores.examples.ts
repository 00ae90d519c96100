/** A request exactly as the platform's sync service sends it (numbers as text, extra properties). */
export const PLATFORM_REQUEST_EXAMPLE = {
  stores: [
    {
      name: 'EL HORNERO GONZALEZ SUAREZ',
      active: true,
      default: true,
      storeId: '1',
      services: [],
      vendorId: '10',
      schedules: [
        { day: 'MONDAY', endTime: '22:30', startTime: '11:00' },
        { day: 'TUESDAY', endTime: '22:30', startTime: '11:00' },
        { day: 'SUNDAY', endTime: '21:30', startTime: '11:00' },
      ],
      storeCode: '1',
      taxesInfo: { vatRatePercentage: 12 },
      contactInfo: { phone: '1700-005005', address: 'GONZALEZ SUAREZ N 32-62 Y JACINTO BEJARANO' },
      deliveryInfo: { cookTime: 30, deliveryId: '1', minimumOrder: 6, shippingCost: 1.9999 },
      locationInfo: { city: 'QUITO', latitude: '-0.194983', longitude: '-78.478709' },
      storeChannels: ['HORNERO-DOMICILE'],
    },
  ],
  channels: [{ active: true, channel: 'Domicilio App', channelId: 'HORNERO-DOMICILE', ecommerceChannelId: '1' }],
  vendorId: '10',
};

/** Every field of the spec: schedules for two channels, a channel with related lists, a dated exception. */
export const COMPLETE_REQUEST_EXAMPLE = {
  stores: [
    {
      name: 'Pizzaria Bella Napoli - Pinheiros',
      active: true,
      storeId: 1201,
      vendorId: '1350',
      storeCode: 'BN-PIN',
      services: [
        { name: 'DELIVERY', active: true },
        { name: 'PICKUP', active: false },
      ],
      schedulesByChannel: [
        {
          channelId: 'BN-APP',
          schedules: [
            { day: 'MONDAY', startTime: '11:00', endTime: '23:00' },
            { day: 'FRIDAY', startTime: '18:00', endTime: '02:00' },
          ],
        },
        {
          channelId: 'BN-MARKETPLACE',
          schedules: [
            { day: 'SATURDAY', startTime: '11:00', endTime: '23:30' },
            { day: 'SPECIAL', startTime: '12:00', endTime: '16:00', startDate: '2025-12-25', endDate: '2025-12-25' },
          ],
        },
      ],
      taxesInfo: { taxRate: 9.25, vatRatePercentage: 18 },
      contactInfo: { phone: '+55 11 3061-0000', address: 'Rua dos Pinheiros, 1200 - Pinheiros, São Paulo - SP' },
      deliveryInfo: { cookTime: '35', deliveryId: '3', minimumOrder: '25.00', shippingCost: 1.9999 },
      locationInfo: { city: 'São Paulo', latitude: '-23.5629', longitude: '-46.6826' },
      storeChannels: ['BN-APP', 'BN-MARKETPLACE'],
    },
  ],
  channels: [
    {
      active: true,
      channel: 'App próprio',
      vendorId: '1350',
      channelId: 'BN-APP',
      channelReferenceName: 'Bella Napoli App',
      additionalInfo: {
        mediaId: 'm-88',
        mediaName: 'app',
        relatedLists: [
          { listId: 'L-100', listName: 'Cardápio principal' },
          { listId: 'L-200', listName: 'Bebidas' },
        ],
      },
    },
    { active: true, channel: 'Marketplace', vendorId: 1350, channelId: 'BN-MARKETPLACE', channelReferenceName: 'Marketplace' },
  ],
};
